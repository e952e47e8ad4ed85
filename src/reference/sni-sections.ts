/** SNI 2007 sections (avdelningar A–U) with Swedish names and their two-digit divisions. */
export interface SniSection {
  code: string;
  name: string;
  divisions: readonly string[];
}

export const SNI_SECTIONS: readonly SniSection[] = [
  { code: 'A', name: 'Jordbruk, skogsbruk och fiske', divisions: ['01', '02', '03'] },
  { code: 'B', name: 'Utvinning av mineral', divisions: ['05', '06', '07', '08', '09'] },
  {
    code: 'C',
    name: 'Tillverkning',
    divisions: ['10', '11', '12', '13', '14', '15', '16', '17', '18', '19', '20', '21', '22', '23', '24', '25', '26', '27', '28', '29', '30', '31', '32', '33'],
  },
  { code: 'D', name: 'Försörjning av el, gas, värme och kyla', divisions: ['35'] },
  { code: 'E', name: 'Vattenförsörjning; avloppsrening, avfallshantering och sanering', divisions: ['36', '37', '38', '39'] },
  { code: 'F', name: 'Byggverksamhet', divisions: ['41', '42', '43'] },
  { code: 'G', name: 'Handel; reparation av motorfordon och motorcyklar', divisions: ['45', '46', '47'] },
  { code: 'H', name: 'Transport och magasinering', divisions: ['49', '50', '51', '52', '53'] },
  { code: 'I', name: 'Hotell- och restaurangverksamhet', divisions: ['55', '56'] },
  { code: 'J', name: 'Informations- och kommunikationsverksamhet', divisions: ['58', '59', '60', '61', '62', '63'] },
  { code: 'K', name: 'Finans- och försäkringsverksamhet', divisions: ['64', '65', '66'] },
  { code: 'L', name: 'Fastighetsverksamhet', divisions: ['68'] },
  { code: 'M', name: 'Verksamhet inom juridik, ekonomi, vetenskap och teknik', divisions: ['69', '70', '71', '72', '73', '74', '75'] },
  { code: 'N', name: 'Uthyrning, fastighetsservice, resetjänster och andra stödtjänster', divisions: ['77', '78', '79', '80', '81', '82'] },
  { code: 'O', name: 'Offentlig förvaltning och försvar; obligatorisk socialförsäkring', divisions: ['84'] },
  { code: 'P', name: 'Utbildning', divisions: ['85'] },
  { code: 'Q', name: 'Vård och omsorg; sociala tjänster', divisions: ['86', '87', '88'] },
  { code: 'R', name: 'Kultur, nöje och fritid', divisions: ['90', '91', '92', '93'] },
  { code: 'S', name: 'Annan serviceverksamhet', divisions: ['94', '95', '96'] },
  {
    code: 'T',
    name: 'Förvärvsarbete i hushåll; hushållens produktion av diverse varor och tjänster för eget bruk',
    divisions: ['97', '98'],
  },
  { code: 'U', name: 'Verksamhet vid internationella organisationer, utländska ambassader o.d.', divisions: ['99'] },
];

/** The section letter a two-digit division belongs to. */
export function sectionForDivision(division: string): SniSection | undefined {
  return SNI_SECTIONS.find((s) => s.divisions.includes(division));
}
