// A company's figures (revenue, profit, equity ratio, growth, trend, has_financials) follow its
// latest statement: an import that brought a new `latest_financials` left them as they were, so
// the record said `revenue: null, has_financials: false` beside a statement of 99 MSEK, and a
// search with --has-financials missed it. A figure the record gives itself stands.
import type { Company, LatestFinancials } from '../core/company.js';
import { trendOfGrowth } from '../core/trend.js';

/** Sets in `merged` the figures `data`'s statement implies, unless `data` gives them. */
export function applyStatementFigures(merged: Record<string, unknown>, existing: Company | null, data: Record<string, unknown>): void {
  const statement = merged.latest_financials as LatestFinancials | null | undefined;
  if (!('latest_financials' in data) || !statement || typeof statement !== 'object') return;
  const before = existing?.latest_financials ?? null;
  // A statement for an earlier year than the one stored corrects history, not the figures.
  if (before && statement.fiscal_year < before.fiscal_year) return;
  const set = (field: keyof Company, value: unknown) => {
    if (!(field in data) && value !== undefined) merged[field] = value;
  };
  set('revenue', statement.net_revenue);
  set('profit', statement.profit);
  set('equity_ratio', statement.equity_ratio);
  set('has_financials', true);
  if (before && before.fiscal_year === statement.fiscal_year - 1 && before.net_revenue > 0 && typeof statement.net_revenue === 'number') {
    const growth = Math.round(((statement.net_revenue - before.net_revenue) / before.net_revenue) * 1000) / 1000;
    set('revenue_growth', growth);
    set('trend', trendOfGrowth(growth));
  }
}
