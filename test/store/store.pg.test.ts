import { describe, it } from 'vitest';
import { DATABASE_URL, openFreshPgStore, PG_SKIP_REASON } from '../helpers/pg.js';
import { storeContract } from './store-contract.js';
import { workContract } from './work-contract.js';

if (DATABASE_URL) {
  storeContract('PostgreSQL', openFreshPgStore);
  workContract('PostgreSQL', openFreshPgStore);
} else {
  describe('Store contract: PostgreSQL', () => {
    it.skip(PG_SKIP_REASON, () => {});
  });
}
