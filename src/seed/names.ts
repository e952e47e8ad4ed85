// Word lists for company names, streets and people. Common Swedish words and surnames, so
// that names look and search like the real register's.

export const SURNAMES = [
  'Andersson', 'Johansson', 'Karlsson', 'Nilsson', 'Eriksson', 'Larsson', 'Olsson', 'Persson', 'Svensson', 'Gustafsson',
  'Pettersson', 'Jonsson', 'Jansson', 'Hansson', 'Bengtsson', 'Jönsson', 'Lindberg', 'Jakobsson', 'Magnusson', 'Lindström',
  'Olofsson', 'Lindqvist', 'Lindgren', 'Berg', 'Axelsson', 'Bergström', 'Lundberg', 'Lind', 'Lundgren', 'Lundqvist',
  'Mattsson', 'Berglund', 'Fredriksson', 'Sandberg', 'Henriksson', 'Forsberg', 'Sjöberg', 'Ali', 'Wallin', 'Mohammed',
  'Engström', 'Eklund', 'Danielsson', 'Lundin', 'Håkansson', 'Björk', 'Bergman', 'Gunnarsson', 'Holm', 'Wikström',
  'Samuelsson', 'Isaksson', 'Fransson', 'Bergqvist', 'Nyström', 'Holmberg', 'Arvidsson', 'Löfgren', 'Söderberg', 'Nyberg',
  'Blomqvist', 'Claesson', 'Nordström', 'Mårtensson', 'Lundström', 'Ahmed', 'Viklund', 'Björklund', 'Eliasson', 'Pålsson',
  'Hassan', 'Berggren', 'Sandström', 'Lund', 'Nordin', 'Ström', 'Åberg', 'Hermansson', 'Ekström', 'Falk',
  'Holmgren', 'Dahlberg', 'Hellström', 'Hedlund', 'Sundberg', 'Sjögren', 'Ek', 'Blom', 'Abrahamsson', 'Öberg',
];

export const FIRST_NAMES = [
  'Anna', 'Eva', 'Maria', 'Karin', 'Sara', 'Christina', 'Lena', 'Emma', 'Kerstin', 'Marie', 'Malin', 'Ingrid', 'Jenny',
  'Hanna', 'Linda', 'Sofia', 'Annika', 'Elin', 'Ida', 'Johanna', 'Lars', 'Mikael', 'Anders', 'Johan', 'Erik', 'Per',
  'Karl', 'Peter', 'Thomas', 'Jan', 'Daniel', 'Fredrik', 'Hans', 'Andreas', 'Stefan', 'Mohamed', 'Mats', 'Marcus',
  'Magnus', 'Jonas', 'Oskar', 'Niklas', 'Henrik', 'Alexander', 'Björn', 'Emil', 'Patrik', 'Martin', 'Ahmad', 'Gustav',
];

/** First parts of invented company names: nature, places, qualities. */
export const NAME_STEMS = [
  'Nord', 'Syd', 'Väst', 'Öst', 'Berg', 'Sjö', 'Skog', 'Fjäll', 'Dal', 'Ek', 'Björk', 'Gran', 'Tall', 'Lind', 'Ask', 'Alm',
  'Sol', 'Stjärn', 'Norr', 'Strand', 'Ström', 'Hav', 'Vik', 'Ö', 'Å', 'Sten', 'Klipp', 'Ljus', 'Guld', 'Silver', 'Järn',
  'Kron', 'Lejon', 'Örn', 'Falk', 'Varg', 'Björn', 'Räv', 'Hjort', 'Svan', 'Tranan', 'Vinter', 'Sommar', 'Vår', 'Höst',
  'Norden', 'Scandi', 'Nova', 'Prima', 'Optima', 'Delta', 'Alfa', 'Nexus', 'Vega', 'Atlas', 'Polar', 'Aurora', 'Arctic',
  'Blå', 'Grön', 'Röd', 'Vit', 'Svart', 'Gyllene', 'Nya', 'Gamla', 'Stora', 'Lilla', 'Mellan', 'Hög', 'Låg', 'Snabb',
];

export const NAME_TAILS = ['', '', '', 'en', 'gården', 'vik', 'dalen', 'berga', 'sund', 'holm', 'näs', 'by', 'torp', 'lund', 'kraft', 'linjen'];

export const STREET_STEMS = [
  'Stor', 'Kyrk', 'Skol', 'Drottning', 'Kungs', 'Järnvägs', 'Industri', 'Hamn', 'Torg', 'Strand', 'Park', 'Ängs', 'Björk',
  'Ek', 'Lind', 'Sjö', 'Berg', 'Skogs', 'Mölle', 'Kvarn', 'Smedje', 'Verkstads', 'Fabriks', 'Bruks', 'Tall', 'Gran',
  'Rosen', 'Linné', 'Svea', 'Vasa', 'Ny', 'Östra Lång', 'Västra Lång', 'Hantverkar', 'Handels', 'Post',
];
export const STREET_KINDS = ['gatan', 'vägen', 'gränd', 'stigen', 'allén', 'backen', 'plan'];

export const BRF_NAMES = [
  'Eken', 'Björken', 'Linden', 'Kastanjen', 'Rönnen', 'Lönnen', 'Almen', 'Häggen', 'Syrenen', 'Fläderbusken', 'Humlan',
  'Svalan', 'Måsen', 'Trasten', 'Sjöutsikten', 'Solgläntan', 'Parkgården', 'Kvarnen', 'Tornet', 'Hamnen', 'Fyren',
];
