// Which source's word stands when the other stops giving it, on SQLite and (with DATABASE_URL)
// PostgreSQL: a company SCB drops stays not active, and Bolagsverket's address comes back; the
// line of the source that owns the address, given without a Swedish one, empties it as a first
// load of that line would (found 2026-11-29: the old address and place stayed for good).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importOpenData } from '../../src/import/import-open-data.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { DATABASE_URL, openFreshPgStore } from '../helpers/pg.js';

const bv = (...f: string[]) => `"${f.join('";"')}"`;
const BV_HEADER = bv('organisationsidentitet', 'namnskyddslopnummer', 'registreringsland', 'organisationsnamn', 'organisationsform', 'avregistreringsdatum', 'avregistreringsorsak', 'pagandeAvvecklingsEllerOmstruktureringsforfarande', 'registreringsdatum', 'verksamhetsbeskrivning', 'postadress');
const bvLine = (orgNr: string, name: string, address: string) =>
  bv(`${orgNr}$ORGNR-IDORG`, '1', 'SE-LAND', `${name}$FORETAGSNAMN-ORGNAM$2020-01-02`, 'AB-ORGFO', '', '', '', '2020-01-02', 'IT', address);

const SCB_COLUMNS = ['ForAndrTyp', 'COAdress', 'Foretagsnamn', 'FtgStat', 'Gatuadress', 'JEStat', 'JurForm', 'Namn', 'Ng1', 'Ng2', 'Ng3', 'Ng4', 'Ng5', 'PeOrgNr', 'PostNr', 'PostOrt', 'RegDatKtid', 'Reklamsparrtyp'];
const SCB_HEADER = `${SCB_COLUMNS.join('\t')}\t`;
const scbLine = (v: Record<string, string>) => `${SCB_COLUMNS.map((h) => v[h] ?? '').join('\t')}\t`;
const scbCompany = (orgNr: string, v: Record<string, string> = {}) =>
  scbLine({ Foretagsnamn: 'X AB', FtgStat: '1', JEStat: '1', JurForm: '49', Ng1: '62100', PeOrgNr: `16${orgNr}`, Gatuadress: 'Drottninggatan 5', PostNr: '111 51', PostOrt: 'STOCKHOLM', RegDatKtid: '20200102', Reklamsparrtyp: '1', ...v });

const A = '5566778899';
const B = '5560000001';
const STOCKHOLM_BOX = 'Box 1$$STOCKHOLM$11122$SE-LAND';
const GOTEBORG = 'Avenyn 1$$GÖTEBORG$41136$SE-LAND';

interface Flavour {
  name: string;
  open(): Promise<{ store: Store; close(): Promise<void> }>;
}

const flavours: Flavour[] = [
  {
    name: 'SQLite',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'bolag-ownership-db-'));
      const store = openSqliteStore(join(dir, 'register.db'));
      return { store, close: async () => (await store.close(), rmSync(dir, { recursive: true, force: true })) };
    },
  },
  ...(DATABASE_URL
    ? [
        {
          name: 'PostgreSQL',
          async open() {
            const store = await openFreshPgStore();
            return { store, close: () => store.close() };
          },
        },
      ]
    : []),
];

for (const flavour of flavours) {
  describe(`whose word stands, on ${flavour.name}`, () => {
    let store: Store;
    let close: () => Promise<void>;
    let dir: string;
    beforeEach(async () => {
      ({ store, close } = await flavour.open());
      dir = mkdtempSync(join(tmpdir(), 'bolag-ownership-'));
    });
    afterEach(async () => {
      await close();
      rmSync(dir, { recursive: true, force: true });
    });

    let files = 0;
    const file = (lines: string[]) => {
      const path = join(dir, `file-${++files}.txt`);
      writeFileSync(path, `${lines.join('\n')}\n`, 'latin1');
      return path;
    };
    const bolagsverket = (lines: string[]) => importOpenData(store, file([BV_HEADER, ...lines]), { source: 'bolagsverket' });
    const scb = (lines: string[]) => importOpenData(store, file([SCB_HEADER, ...lines]), { source: 'scb' });
    const events = async (orgNr: string) =>
      (await store.outbox.readAfter(0, 1000)).map((e) => ({ type: e.event.type, ...(e.event.data as Record<string, unknown>) })).filter((e) => e.org_nr === orgNr);

    it('a company SCB drops stays vilande, and the next Bolagsverket import puts its address back', async () => {
      const week = [bvLine(A, 'Exempel AB', STOCKHOLM_BOX), bvLine(B, 'Annat AB', STOCKHOLM_BOX)];
      await bolagsverket(week);
      // JEStat 9: left SCB's population, which SCB keeps listing for six months.
      await scb([scbCompany(A, { JEStat: '9' }), scbCompany(B)]);
      expect(await store.companies.get('556677-8899')).toMatchObject({ status: 'vilande', address: { street: 'Drottninggatan 5', postal_code: '111 51' } });
      const before = (await events('556677-8899')).length;

      const dropped = await scb([scbCompany(B)]);
      expect(dropped.result.vanished).toBe(1);
      // Still not active: no status_changed back to aktiv.
      expect(await store.companies.get('556677-8899')).toMatchObject({ status: 'vilande' });
      expect((await events('556677-8899')).slice(before).filter((e) => e.type === 'company.status_changed')).toEqual([]);

      // Bolagsverket's unchanged line is read again: its address is the one now.
      const again = await bolagsverket(week);
      expect(again.result).toMatchObject({ updated: 1, unchanged: 1 });
      expect(await store.companies.get('556677-8899')).toMatchObject({ status: 'vilande', address: { street: 'Box 1', postal_code: '111 22', city: 'STOCKHOLM' } });
      // And only once: the week after changes nothing.
      expect((await bolagsverket(week)).result).toMatchObject({ updated: 0, unchanged: 2 });
    });

    it("the address owner's line without a Swedish address empties the address, its place and location", async () => {
      await bolagsverket([bvLine(A, 'Exempel AB', GOTEBORG), bvLine(B, 'Annat AB', STOCKHOLM_BOX)]);
      expect(await store.companies.get('556677-8899')).toMatchObject({ municipality_code: '1480', location: { lat: expect.any(Number) } });
      // Moved abroad; the other one gives no address at all.
      const moved = await bolagsverket([bvLine(A, 'Exempel AB', 'Storgata 1$$OSLO$0150$NO-LAND'), bvLine(B, 'Annat AB', '')]);
      expect(moved.result).toMatchObject({ updated: 2 });
      for (const orgNr of ['556677-8899', '556000-0001']) {
        expect(await store.companies.get(orgNr), orgNr).toMatchObject({
          address: { street: '', postal_code: '', city: '' },
          municipality: '',
          municipality_code: '',
          county: '',
          county_code: '',
          location: null,
        });
      }
      // SCB owns the address where it lists the company: its line without one empties it too.
      await scb([scbCompany(A), scbCompany(B)]);
      expect(await store.companies.get('556677-8899')).toMatchObject({ address: { street: 'Drottninggatan 5' }, municipality_code: '0180' });
      await scb([scbCompany(A, { Gatuadress: '', PostNr: '', PostOrt: '' }), scbCompany(B)]);
      expect(await store.companies.get('556677-8899')).toMatchObject({ address: { street: '', postal_code: '', city: '' }, municipality_code: '', location: null });
    });
  });
}
