// Real postal areas of the reference data, for generated addresses.
import { MUNICIPALITIES } from '../../src/reference/municipalities.js';

export interface Area {
  prefix: string;
  city: string;
}

export const AREAS: readonly Area[] = MUNICIPALITIES.flatMap((m) => m.postal.map((p) => ({ prefix: p.prefix, city: p.city })));

export const STREETS = ['Storgatan', 'Kungsgatan', 'Drottninggatan', 'Industrivägen', 'Skolgatan', 'Kyrkvägen', 'Hamngatan', 'Järnvägsgatan', 'Ringvägen', 'Box'];
export const WORDS = ['Bygg', 'Konsult', 'Data', 'Fastighets', 'Handels', 'Teknik', 'Service', 'Invest', 'Trä', 'Måleri', 'El', 'Design', 'Transport', 'Hälsa', 'Café'];
export const PLACES = ['Norr', 'Syd', 'Väst', 'Öst', 'Skåne', 'Stockholm', 'Göteborg', 'Norrland', 'Dalarna', 'Mälardalen'];
export const ACTIVITIES = [
  'Konsultverksamhet inom IT och systemutveckling',
  'Byggverksamhet, renovering och tillbyggnad av bostäder',
  'Förvaltning av fastigheter samt därmed förenlig verksamhet',
  'Handel med kläder, skor och accessoarer via internet',
  'Restaurang- och cateringverksamhet',
  'Äga och förvalta värdepapper samt bedriva konsultverksamhet inom ekonomi',
  'Transporter av gods på väg',
  'Måleri- och golvläggningsarbeten',
];
export const SNI2025 = ['62100', '62200', '41000', '43341', '68200', '70220', '47710', '56110', '49410', '86210', '96020', '47810', '01110', '25620'];

export function postcode(area: Area, r: number): string {
  return `${area.prefix}${String(Math.floor(r * 100)).padStart(2, '0')}`;
}
