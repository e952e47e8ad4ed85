// Proportions of the generated register, close to Bolagsverket's and SCB's published figures
// (tests assert the generated shares fall within bounds of these).
import type { LegalForm, Status } from '../core/values.js';

export const LEGAL_FORM_SHARES: Readonly<Record<LegalForm, number>> = {
  aktiebolag: 0.56,
  enskild_näringsidkare: 0.3,
  handelsbolag: 0.045,
  kommanditbolag: 0.008,
  ekonomisk_förening: 0.015,
  bostadsrättsförening: 0.025,
  ideell_förening: 0.032,
  stiftelse: 0.012,
  filial: 0.003,
};

export const STATUS_SHARES: Readonly<Record<Status, number>> = {
  aktiv: 0.8,
  vilande: 0.04,
  likvidation: 0.015,
  konkurs: 0.02,
  rekonstruktion: 0.002,
  avregistrerad: 0.123,
};

/** SCB: about 0.3 % of units carry an advertising block (Reklamspärr). */
export const ADVERTISING_BLOCK_SHARE = 0.003;

/** Legal forms that file annual accounts with Bolagsverket, and how often we have them. */
export const FINANCIALS_SHARE: Readonly<Record<LegalForm, number>> = {
  aktiebolag: 0.88,
  enskild_näringsidkare: 0,
  handelsbolag: 0.1,
  kommanditbolag: 0.1,
  ekonomisk_förening: 0.6,
  bostadsrättsförening: 0.9,
  ideell_förening: 0.05,
  stiftelse: 0.4,
  filial: 0.3,
};

export const WEBSITE_SHARE: Readonly<Record<LegalForm, number>> = {
  aktiebolag: 0.55,
  enskild_näringsidkare: 0.2,
  handelsbolag: 0.3,
  kommanditbolag: 0.3,
  ekonomisk_förening: 0.5,
  bostadsrättsförening: 0.35,
  ideell_förening: 0.45,
  stiftelse: 0.3,
  filial: 0.7,
};

/** The register's "today": generated dates are relative to it, never to the clock. */
export const REGISTER_DATE = '2026-11-01';
