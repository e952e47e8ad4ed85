import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { storeContract } from './store-contract.js';
import { workContract } from './work-contract.js';

const open = async () => openSqliteStore(join(mkdtempSync(join(tmpdir(), 'bolag-store-')), 'store.db'));
storeContract('SQLite', open);
workContract('SQLite', open);
