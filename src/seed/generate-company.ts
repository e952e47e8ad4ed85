// One deterministic company after another: the register `bolag db seed` loads.
import type { Company } from '../core/company.js';
import { companyIdFromRow } from '../core/company-id.js';
import { formatOrgNr } from '../core/orgnr.js';
import { countyName } from '../core/place-names.js';
import type { LegalForm, Status } from '../core/values.js';
import { categoryForSni } from '../reference/categories.js';
import { MUNICIPALITIES, type Municipality } from '../reference/municipalities.js';
import { SNI_DETAILS } from '../reference/sni.js';
import { drawFigures, employeesClassFor } from './financials.js';
import { BRF_NAMES, FIRST_NAMES, NAME_STEMS, NAME_TAILS, STREET_KINDS, STREET_STEMS, SURNAMES } from './names.js';
import { OrgNumberFactory } from './org-numbers.js';
import { Random, WeightedTable, weighted } from './random.js';
import { ADVERTISING_BLOCK_SHARE, FINANCIALS_SHARE, LEGAL_FORM_SHARES, REGISTER_DATE, STATUS_SHARES, WEBSITE_SHARE } from './shares.js';
import { industryWord } from './industry-words.js';
import { inTown, positionSpread } from './municipality-spread.js';

const REGISTER_YEAR = Number(REGISTER_DATE.slice(0, 4));
const DAY_MS = 86_400_000;
const REGISTER_TIME = Date.parse(`${REGISTER_DATE}T00:00:00Z`);

// Dates by day, made once: formatting and parsing a date for each of a million companies was a
// tenth of the generator's time (there are fewer than 50,000 distinct registration days). Kept
// in an array by days before the register's date (from -1: a time on the register's date is
// up to a day after it), as a Map lookup per company cost more than the rest of a date.
const DATE_OF_DAY: string[] = [];

/** The date `daysAgo` days before the register's date, as YYYY-MM-DD. */
function registrationDay(daysAgo: number): string {
  const i = daysAgo + 1;
  return (DATE_OF_DAY[i] ??= new Date(REGISTER_TIME - daysAgo * DAY_MS).toISOString().slice(0, 10));
}

/** `new Date(t).toISOString()`, the date part made once per day (as registrationDay). */
function isoTime(t: number): string {
  const day = Math.ceil((REGISTER_TIME - t) / DAY_MS) | 0; // t's midnight, in days before the register's date (| 0: no -0)
  let ms = t - (REGISTER_TIME - day * DAY_MS);
  if (!(ms >= 0 && ms < DAY_MS && Number.isInteger(ms))) return new Date(t).toISOString();
  const h = Math.floor(ms / 3_600_000);
  ms -= h * 3_600_000;
  const m = Math.floor(ms / 60_000);
  ms -= m * 60_000;
  const sec = Math.floor(ms / 1000);
  ms -= sec * 1000;
  return `${registrationDay(day)}T${two(h)}:${two(m)}:${two(sec)}.${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`;
}

function two(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** SNI codes typical of forms whose trade is given by the form itself. */
const FORM_SNI: Partial<Record<LegalForm, string>> = {
  bostadsrättsförening: '68203',
  ideell_förening: '94990',
  stiftelse: '94990',
};

export class CompanyGenerator {
  private readonly random: Random;
  private readonly orgNumbers: OrgNumberFactory;
  private readonly municipalities = new WeightedTable(MUNICIPALITIES, (m) => m.population);
  private readonly sni = new WeightedTable(SNI_DETAILS, (s) => s.weight);
  private row: number;

  /** `firstRow`: rows before this generator's first (its companies' ids follow on). */
  constructor(seed: string | number, firstRow = 0) {
    this.random = new Random(`bolag:${seed}`);
    this.orgNumbers = new OrgNumberFactory(this.random);
    this.row = firstRow;
  }

  *generate(count: number): Generator<Company> {
    for (let i = 0; i < count; i++) yield this.next();
  }

  /** The next company; `identity` gives its form and org nr (drawn elsewhere, identities.ts). */
  next(identity?: { form: LegalForm; orgNr: string }): Company {
    const r = this.random;
    const rowid = ++this.row;
    const form = identity?.form ?? weighted(r, LEGAL_FORM_SHARES);
    const daysAgo = this.registrationDaysAgo();
    const registration = registrationDay(daysAgo);
    const status = this.status(registration);
    const municipality = this.municipalities.draw(r);
    const primary = FORM_SNI[form] ?? this.sni.draw(r).code;
    const sniCodes = [primary];
    while (sniCodes.length < 3 && r.chance(0.25)) {
      const extra = this.sni.draw(r).code;
      if (!sniCodes.includes(extra)) sniCodes.push(extra);
    }
    const category = categoryForSni(primary);
    const active = status === 'aktiv';
    const hasFinancials = r.chance(FINANCIALS_SHARE[form]);
    const figures = hasFinancials ? drawFigures(r, form, REGISTER_YEAR - (r.chance(0.7) ? 1 : 2)) : null;
    const name = this.name(form, primary);
    const hasWebsite = active && r.chance(WEBSITE_SHARE[form]);
    const websiteKnown = r.chance(0.92);
    const postal = r.pick(municipality.postal);
    const employees = figures?.employees ?? (form === 'enskild_näringsidkare' ? (r.chance(0.85) ? 0 : r.int(1, 4)) : r.int(0, 9));
    const orgNr = identity?.orgNr ?? this.orgNumbers.next(form, REGISTER_YEAR - r.int(22, 75));

    return {
      id: companyIdFromRow(rowid),
      org_nr: formatOrgNr(orgNr),
      name,
      legal_form: form,
      status,
      address: {
        street: `${r.pick(STREET_STEMS)}${r.pick(STREET_KINDS)} ${r.int(1, 120)}`,
        postal_code: `${postal.prefix} ${r.digits(2)}`,
        city: postal.city,
      },
      municipality: municipality.name,
      municipality_code: municipality.code,
      county: countyName(municipality.countyCode),
      county_code: municipality.countyCode,
      category: { slug: category.slug, name: category.name },
      sni_codes: sniCodes,
      website: hasWebsite ? websiteFor(name) : null,
      website_status: !websiteKnown ? 'okänd' : hasWebsite ? 'har_hemsida' : 'ingen_hemsida',
      employees_class: figures?.employees_class ?? employeesClassFor(employees),
      trend: figures?.trend ?? 'okänd',
      revenue: figures?.revenue ?? null,
      profit: figures?.profit ?? null,
      equity_ratio: figures?.equity_ratio ?? null,
      revenue_growth: figures?.revenue_growth ?? null,
      has_financials: figures !== null,
      f_skatt: active && form !== 'bostadsrättsförening' && r.chance(0.82),
      vat_registered: active && r.chance(form === 'ideell_förening' ? 0.2 : 0.75),
      employer_registered: active && employees > 0 && r.chance(0.93),
      verified: r.chance(0.07),
      advertising_blocked: r.chance(ADVERTISING_BLOCK_SHARE),
      registration_date: registration,
      location: this.location(municipality, rowid),
      updated_at: this.updatedAt(daysAgo),
      latest_financials: figures?.latest ?? null,
    };
  }

  /** Some time in the last three years, never before the company was registered. */
  private updatedAt(registeredDaysAgo: number): string {
    const r = this.random;
    const earliest = REGISTER_TIME - registeredDaysAgo * DAY_MS;
    const t = REGISTER_TIME - r.int(0, 365 * 3) * DAY_MS - r.int(0, DAY_MS - 1);
    return isoTime(Math.max(earliest + r.int(0, DAY_MS - 1), t));
  }

  /** Skewed to recent decades, as the register is: most companies alive today are young. */
  private registrationDaysAgo(): number {
    const yearsAgo = Math.min(125, -Math.log(1 - this.random.next()) * 14);
    return Math.floor(yearsAgo * 365.25);
  }

  private status(registration: string): Status {
    const s = weighted(this.random, STATUS_SHARES);
    // Companies registered in the last year have rarely had time to be wound up.
    if (s !== 'aktiv' && registration > `${REGISTER_YEAR - 1}` && this.random.chance(0.7)) return 'aktiv';
    return s;
  }

  private location(m: Municipality, rowid: number): { lat: number; lng: number } {
    const spreads = positionSpread(m);
    // In town or not by the row, not by a draw: a draw more would change every later value of
    // the register (its names, its figures), not only where its companies are.
    const spread = inTown(rowid) ? spreads.town : spreads.area;
    return {
      lat: Math.round((m.lat + this.random.normal(0, spread.lat)) * 1e5) / 1e5,
      lng: Math.round((m.lng + this.random.normal(0, spread.lng)) * 1e5) / 1e5,
    };
  }

  private name(form: LegalForm, sni: string): string {
    const r = this.random;
    const trade = industryWord(sni, r.int(0, 7));
    const stem = `${r.pick(NAME_STEMS)}${r.pick(NAME_TAILS)}`;
    switch (form) {
      case 'aktiebolag':
        return r.chance(0.35) ? `${r.pick(SURNAMES)}s ${trade} AB` : r.chance(0.5) ? `${stem} ${trade} AB` : `${stem} AB`;
      case 'enskild_näringsidkare':
        return r.chance(0.5) ? `${r.pick(FIRST_NAMES)} ${r.pick(SURNAMES)}` : `${r.pick(SURNAMES)}s ${trade}`;
      case 'handelsbolag':
        return r.chance(0.5) ? `${r.pick(SURNAMES)} & ${r.pick(SURNAMES)} HB` : `${stem} ${trade} HB`;
      case 'kommanditbolag':
        return `${stem} ${trade} KB`;
      case 'ekonomisk_förening':
        return `${stem} ${trade} ekonomisk förening`;
      case 'bostadsrättsförening':
        return r.chance(0.5) ? `Bostadsrättsföreningen ${r.pick(BRF_NAMES)} ${r.int(1, 40)}` : `Brf ${stem}`;
      case 'ideell_förening':
        return `${stem} ${r.pick(['Idrottsförening', 'Hembygdsförening', 'Byalag', 'Kulturförening', 'Föräldraförening'])}`;
      case 'stiftelse':
        return `Stiftelsen ${stem}`;
      case 'filial':
        return `${stem} ${trade} Ltd, filial i Sverige`;
    }
  }
}

function websiteFor(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/å|ä/g, 'a')
    .replace(/ö/g, 'o')
    .replace(/é/g, 'e')
    .replace(/\b(ab|hb|kb)\b/g, '')
    .replace(/[^a-z0-9]+/g, '')
    .slice(0, 40);
  return `https://www.${slug || 'foretag'}.se`;
}
