import { normalizeSni } from './sni.js';

/**
 * A category for end users, built on SNI 2007. `sni_prefixes` are the SNI code
 * prefixes of the category's own area (2–5 digits); when searching, the search
 * layer unions a parent's prefixes with those of all its descendants.
 */
export interface Category {
  slug: string;
  name: string;
  parent: string | null;
  sni_prefixes: readonly string[];
}

const top = (slug: string, name: string, sni_prefixes: readonly string[]): Category => ({ slug, name, parent: null, sni_prefixes });
const sub = (parent: string, slug: string, name: string, sni_prefixes: readonly string[]): Category => ({ slug, name, parent, sni_prefixes });

export const CATEGORIES: readonly Category[] = [
  top('jordbruk-skog-fiske', 'Jordbruk, skog och fiske', ['01', '02', '03']),
  sub('jordbruk-skog-fiske', 'vaxtodling', 'Växtodling och trädgård', ['011', '012', '013', '015', '016', '017']),
  sub('jordbruk-skog-fiske', 'djuruppfodning', 'Djuruppfödning och mjölkproduktion', ['014']),
  sub('jordbruk-skog-fiske', 'skogsbruk', 'Skogsbruk', ['02']),
  sub('jordbruk-skog-fiske', 'fiske-och-vattenbruk', 'Fiske och vattenbruk', ['03']),

  top('utvinning', 'Gruvor och utvinning', ['05', '06', '07', '08', '09']),
  sub('utvinning', 'gruvor', 'Gruvor och malmutvinning', ['05', '06', '07']),
  sub('utvinning', 'grus-och-sten', 'Grus, sten och torv', ['08']),
  sub('utvinning', 'service-till-utvinning', 'Service till utvinning', ['09']),

  top('tillverkning', 'Tillverkning och industri', ['10', '11', '12', '13', '14', '15', '16', '17', '18', '19', '20', '21', '22', '23', '24', '25', '26', '27', '28', '29', '30', '31', '32', '33']),
  sub('tillverkning', 'livsmedel-och-dryck', 'Livsmedel och drycker', ['10', '11', '12']),
  sub('tillverkning', 'textil-och-klader', 'Textil, kläder och läder', ['13', '14', '15']),
  sub('tillverkning', 'tra-och-mobler', 'Trävaror och möbler', ['16', '31']),
  sub('tillverkning', 'kemi-och-plast', 'Kemi, läkemedel, gummi och plast', ['19', '20', '21', '22', '23']),
  sub('tillverkning', 'metall-och-maskiner', 'Metallvaror, maskiner och fordon', ['24', '25', '28', '29', '30', '33']),
  sub('tillverkning', 'elektronik', 'Elektronik och elapparatur', ['26', '27']),

  top('energi-och-miljo', 'Energi, vatten och miljö', ['35', '36', '37', '38', '39']),
  sub('energi-och-miljo', 'energi', 'El, gas och fjärrvärme', ['35']),
  sub('energi-och-miljo', 'vatten-och-avlopp', 'Vatten och avlopp', ['36', '37']),
  sub('energi-och-miljo', 'avfall-och-atervinning', 'Avfall, återvinning och sanering', ['38', '39']),

  top('bygg', 'Bygg och anläggning', ['41', '42', '43']),
  sub('bygg', 'husbyggnad', 'Husbyggnad', ['41']),
  sub('bygg', 'snickerier', 'Snickerier', ['1623', '43320']),
  sub('bygg', 'elinstallation', 'Elinstallation', ['43210']),
  sub('bygg', 'vvs', 'VVS och ventilation', ['4322']),
  sub('bygg', 'maleri', 'Måleri', ['43341']),
  sub('bygg', 'takarbeten', 'Takarbeten', ['4391']),

  top('fordon', 'Bilar och fordonsservice', ['45']),
  sub('fordon', 'bilhandel', 'Bilhandel och reservdelar', ['451', '453', '454']),
  sub('fordon', 'bilverkstader', 'Bilverkstäder och däckservice', ['452']),

  top('handel', 'Handel', ['46', '47']),
  sub('handel', 'partihandel', 'Partihandel och agenturer', ['46']),
  sub('handel', 'dagligvaruhandel', 'Livsmedel och dagligvaror', ['471', '472']),
  sub('handel', 'klader-och-skor', 'Kläder och skor', ['4771', '4772']),
  sub('handel', 'hem-och-fritid', 'Hem, bygg och fritid', ['474', '475', '476']),
  sub('handel', 'e-handel', 'E-handel och postorder', ['4791']),

  top('restaurang-och-cafe', 'Restaurang och café', ['56']),
  sub('restaurang-och-cafe', 'restauranger', 'Restauranger och caféer', ['561']),
  sub('restaurang-och-cafe', 'catering', 'Catering och storkök', ['562']),
  sub('restaurang-och-cafe', 'barer', 'Barer och pubar', ['563']),

  top('hotell-och-turism', 'Hotell, resor och turism', ['55', '79']),
  sub('hotell-och-turism', 'hotell', 'Hotell och konferens', ['551']),
  sub('hotell-och-turism', 'camping-och-stugbyar', 'Camping, stugbyar och vandrarhem', ['552', '553', '559']),
  sub('hotell-och-turism', 'resebyraer', 'Resebyråer och researrangörer', ['79']),

  top('transport', 'Transport och logistik', ['49', '50', '51', '52', '53']),
  sub('transport', 'akerier', 'Åkerier och godstransport', ['49410', '492', '495']),
  sub('transport', 'flyttfirmor', 'Flyttfirmor', ['49420']),
  sub('transport', 'taxi', 'Taxi', ['49320']),
  sub('transport', 'persontrafik', 'Buss, tåg, båt och flyg', ['491', '4931', '4939', '50', '51']),
  sub('transport', 'lager-och-logistik', 'Lager, hamn och logistik', ['52']),
  sub('transport', 'bud-och-post', 'Bud och post', ['53']),

  top('it', 'IT och telekom', ['582', '61', '62', '631']),
  sub('it', 'programmering', 'Programmering och mjukvara', ['62010', '582']),
  sub('it', 'it-konsulter', 'IT-konsulter', ['62020', '62090']),
  sub('it', 'drift-och-hosting', 'Drift, hosting och webbportaler', ['62030', '631']),
  sub('it', 'telekom', 'Telekom', ['61']),

  top('media-och-reklam', 'Media, reklam och kommunikation', ['581', '59', '60', '639', '73', '70210']),
  sub('media-och-reklam', 'forlag', 'Förlag och tidningar', ['581']),
  sub('media-och-reklam', 'film-tv-och-musik', 'Film, tv, radio och musikproduktion', ['59', '60']),
  sub('media-och-reklam', 'reklam-och-pr', 'Reklam, PR och marknadsföring', ['731', '70210']),
  sub('media-och-reklam', 'marknadsundersokning', 'Marknads- och opinionsundersökning', ['732']),

  top('finans', 'Bank, finans och försäkring', ['64', '65', '66']),
  sub('finans', 'holdingbolag', 'Holdingbolag', ['642']),
  sub('finans', 'bank-och-kredit', 'Bank och kredit', ['641', '6491', '6492']),
  sub('finans', 'investering-och-vardepapper', 'Investering, fonder och värdepapper', ['643', '6499', '661', '663']),
  sub('finans', 'forsakring', 'Försäkring och pension', ['65', '662']),

  top('fastigheter', 'Fastigheter', ['68']),
  sub('fastigheter', 'uthyrning-bostader', 'Uthyrning av bostäder', ['68201']),
  sub('fastigheter', 'uthyrning-lokaler', 'Uthyrning av lokaler', ['68202', '68203']),
  sub('fastigheter', 'bostadsrattsforeningar', 'Bostadsrättsföreningar', ['68204']),
  sub('fastigheter', 'fastighetsmaklare', 'Fastighetsmäklare', ['68310']),
  sub('fastigheter', 'fastighetsforvaltning', 'Fastighetsförvaltning och fastighetshandel', ['681', '68209', '68320']),

  top('konsulter', 'Konsulter och rådgivning', ['69', '70', '71', '72', '74']),
  sub('konsulter', 'redovisning-och-revision', 'Redovisning och revision', ['692']),
  sub('konsulter', 'juridik', 'Advokater och juridik', ['691']),
  sub('konsulter', 'managementkonsulter', 'Managementkonsulter', ['701', '70220']),
  sub('konsulter', 'arkitekter-och-ingenjorer', 'Arkitekter och tekniska konsulter', ['71']),
  sub('konsulter', 'forskning-och-utveckling', 'Forskning och utveckling', ['72']),
  sub('konsulter', 'design-och-foto', 'Design, foto och översättning', ['741', '742', '743']),

  top('foretagstjanster', 'Företagstjänster och service', ['77', '78', '80', '81', '82']),
  sub('foretagstjanster', 'bemanning-och-rekrytering', 'Bemanning och rekrytering', ['78']),
  sub('foretagstjanster', 'stadning', 'Städning och lokalvård', ['812']),
  sub('foretagstjanster', 'fastighetsservice-och-tradgard', 'Fastighetsservice och trädgård', ['811', '813']),
  sub('foretagstjanster', 'sakerhet', 'Säkerhet och bevakning', ['80']),
  sub('foretagstjanster', 'uthyrning-och-leasing', 'Uthyrning och leasing', ['77']),
  sub('foretagstjanster', 'kontorstjanster', 'Kontorstjänster, mässor och callcenter', ['82']),

  top('halsa-och-vard', 'Hälsa och sjukvård', ['86', '75']),
  sub('halsa-och-vard', 'lakare-och-vardcentraler', 'Läkare, sjukhus och vårdcentraler', ['861', '8621', '8622']),
  sub('halsa-och-vard', 'tandvard', 'Tandvård', ['86230', '86904']),
  sub('halsa-och-vard', 'fysioterapi', 'Fysioterapi och rehabilitering', ['86905']),
  sub('halsa-och-vard', 'ovrig-vard', 'Laboratorier, ambulans och annan vård', ['86901', '86902', '86903', '86909']),
  sub('halsa-och-vard', 'veterinarer', 'Veterinärer', ['75']),

  top('omsorg', 'Vård och omsorg', ['87', '88']),
  sub('omsorg', 'aldreomsorg', 'Äldreomsorg', ['871', '87301', '88101']),
  sub('omsorg', 'funktionshinder', 'Stöd till personer med funktionshinder', ['87201', '87302', '88102']),
  sub('omsorg', 'sociala-insatser', 'Sociala insatser, HVB och dagbarnvård', ['87202', '87203', '879', '889']),

  top('utbildning', 'Utbildning', ['85']),
  sub('utbildning', 'forskolor', 'Förskolor', ['851']),
  sub('utbildning', 'skolor', 'Grund- och gymnasieskolor', ['852', '853']),
  sub('utbildning', 'hogre-utbildning', 'Högre utbildning', ['854']),
  sub('utbildning', 'trafikskolor', 'Trafikskolor', ['85530', '85324']),
  sub('utbildning', 'kurser-och-ovrig-utbildning', 'Kurser, kultur- och fritidsutbildning', ['855', '856']),

  top('kultur-och-noje', 'Kultur, nöje och fritid', ['90', '91', '92', '93']),
  sub('kultur-och-noje', 'artister-och-konstnarer', 'Artister, konstnärer och scenkonst', ['90']),
  sub('kultur-och-noje', 'museer-och-bibliotek', 'Museer, bibliotek och sevärdheter', ['91']),
  sub('kultur-och-noje', 'spel-och-vadhallning', 'Spel och vadhållning', ['92']),
  sub('kultur-och-noje', 'sport-och-gym', 'Sport, gym och idrottsanläggningar', ['931']),
  sub('kultur-och-noje', 'noje-och-fritid', 'Nöjen och fritid', ['932']),

  top('skonhet-och-frisor', 'Skönhet och frisörer', ['96021', '96022', '96040']),
  sub('skonhet-och-frisor', 'frisorer', 'Frisörer', ['96021']),
  sub('skonhet-och-frisor', 'skonhetsvard', 'Skönhetsvård och naglar', ['96022']),
  sub('skonhet-och-frisor', 'massage-och-spa', 'Massage, spa och kroppsvård', ['96040']),

  top('personliga-tjanster', 'Reparationer och personliga tjänster', ['95', '96', '97', '98']),
  sub('personliga-tjanster', 'reparationer', 'Reparationer', ['95']),
  sub('personliga-tjanster', 'tvatterier', 'Tvätterier', ['9601']),
  sub('personliga-tjanster', 'begravningsbyraer', 'Begravningsbyråer', ['96030']),
  sub('personliga-tjanster', 'hushallstjanster', 'Hushållstjänster och övriga konsumenttjänster', ['96090', '97', '98']),

  top('organisationer', 'Föreningar och organisationer', ['94']),
  sub('organisationer', 'bransch-och-fackorganisationer', 'Bransch-, arbetsgivar- och fackorganisationer', ['941', '942']),
  sub('organisationer', 'religiosa-samfund', 'Religiösa samfund', ['94910']),
  sub('organisationer', 'ideella-foreningar', 'Ideella och politiska föreningar', ['94920', '94990']),

  top('offentlig-sektor', 'Offentlig förvaltning', ['84', '99']),
  sub('offentlig-sektor', 'myndigheter', 'Myndigheter och förvaltning', ['841', '843']),
  sub('offentlig-sektor', 'forsvar-och-rattsvasende', 'Försvar, rättsväsende och räddningstjänst', ['842']),
  sub('offentlig-sektor', 'internationella-organisationer', 'Internationella organisationer och ambassader', ['99']),

  top('ovrigt', 'Övrigt', ['00']),
];

const BY_SLUG = new Map(CATEGORIES.map((c) => [c.slug, c]));
const CHILDREN = new Map<string, Category[]>();
for (const c of CATEGORIES) {
  if (c.parent === null) continue;
  const list = CHILDREN.get(c.parent);
  if (list) list.push(c);
  else CHILDREN.set(c.parent, [c]);
}

/** Prefixes sorted longest first; on equal length a child category beats its parent. */
const PREFIX_INDEX: readonly { prefix: string; category: Category }[] = CATEGORIES.flatMap((category) =>
  category.sni_prefixes.map((prefix) => ({ prefix, category })),
).sort((a, b) => b.prefix.length - a.prefix.length || Number(a.category.parent === null) - Number(b.category.parent === null));

const FALLBACK = BY_SLUG.get('ovrigt') as Category;

/** Looks up a category by slug. */
export function categoryBySlug(slug: string): Category | undefined {
  return BY_SLUG.get(slug);
}

/** The top-level categories, in display order. */
export function topCategories(): Category[] {
  return CATEGORIES.filter((c) => c.parent === null);
}

/** The direct children of a category. */
/**
 * The most specific category for an SNI code (any length, dots allowed): the
 * one whose prefix matches the code with the longest prefix. Codes that match
 * nothing fall under 'ovrigt'.
 */
const categoryBySniCache = new Map<string, Category>();

export function categoryForSni(code: string): Category {
  let found = categoryBySniCache.get(code);
  if (!found) {
    found = findCategoryForSni(code);
    if (categoryBySniCache.size < 10_000) categoryBySniCache.set(code, found);
  }
  return found;
}

function findCategoryForSni(code: string): Category {
  const c = normalizeSni(code);
  for (const entry of PREFIX_INDEX) {
    if (c.startsWith(entry.prefix)) return entry.category;
  }
  return FALLBACK;
}

/** The slug itself and the slugs of all its descendants (empty if unknown). */
export function descendantSlugs(slug: string): string[] {
  if (!BY_SLUG.has(slug)) return [];
  const out: string[] = [];
  const stack = [slug];
  while (stack.length > 0) {
    const s = stack.pop() as string;
    out.push(s);
    for (const child of CHILDREN.get(s) ?? []) stack.push(child.slug);
  }
  return out;
}

/** All SNI prefixes for a category and its descendants, as the search layer uses them. */
export function sniPrefixesForCategory(slug: string): string[] {
  const set = new Set<string>();
  for (const s of descendantSlugs(slug)) for (const p of BY_SLUG.get(s)?.sni_prefixes ?? []) set.add(p);
  return [...set];
}
