// A short trade word for company names, by SNI code prefix ("Bygg", "Snickeri", "Konsult").
const WORDS: readonly [prefix: string, words: readonly string[]][] = [
  ['0111', ['Lantbruk', 'Gård']], ['01', ['Lantbruk', 'Gård', 'Jordbruk']], ['02', ['Skog', 'Skogsvård']], ['03', ['Fiske']],
  ['10', ['Livsmedel', 'Bageri']], ['1623', ['Snickeri', 'Snickerier']], ['16', ['Trä', 'Sågverk']], ['25', ['Mekaniska', 'Smide']],
  ['2', ['Industri', 'Tillverkning']], ['3', ['Energi', 'Miljö']], ['4332', ['Snickeri', 'Bygg & Snickeri']], ['4321', ['El', 'Elinstallation']],
  ['4322', ['VVS', 'Rör']], ['4334', ['Måleri', 'Måleri & Tapetsering']], ['4391', ['Tak', 'Plåt & Tak']], ['41', ['Bygg', 'Byggnads']],
  ['42', ['Mark & Anläggning', 'Anläggning']], ['43', ['Bygg', 'Byggservice']], ['45', ['Bil', 'Motor']], ['46', ['Handel', 'Import']],
  ['47', ['Butik', 'Handel']], ['49', ['Åkeri', 'Transport']], ['5', ['Logistik', 'Transport']], ['55', ['Hotell', 'Vandrarhem']],
  ['56', ['Restaurang', 'Café', 'Pizzeria']], ['58', ['Förlag']], ['59', ['Film', 'Produktion']], ['62', ['Data', 'IT', 'Software']],
  ['63', ['Data', 'Media']], ['64', ['Invest', 'Holding', 'Kapital']], ['65', ['Försäkring']], ['66', ['Finans']],
  ['68', ['Fastigheter', 'Fastighets']], ['69', ['Redovisning', 'Juridik']], ['70', ['Konsult', 'Management']],
  ['71', ['Arkitekter', 'Teknik', 'Ingenjörer']], ['73', ['Reklam', 'Kommunikation']], ['74', ['Design', 'Foto']],
  ['75', ['Djurklinik']], ['77', ['Uthyrning']], ['78', ['Bemanning']], ['79', ['Resor']], ['81', ['Städ', 'Fastighetsservice']],
  ['82', ['Kontorsservice']], ['85', ['Utbildning', 'Skola']], ['86', ['Vård', 'Hälsa', 'Tandvård']], ['87', ['Omsorg']],
  ['88', ['Omsorg', 'Assistans']], ['90', ['Kultur', 'Konst']], ['93', ['Sport', 'Fritid']], ['96', ['Frisör', 'Skönhet']],
];

export function industryWord(sni: string, pick = 0): string {
  for (const [prefix, words] of WORDS) {
    if (sni.startsWith(prefix)) return words[pick % words.length];
  }
  return 'Service';
}
