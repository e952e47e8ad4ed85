// Heavy-tailed financial figures: log-normal revenue with a Pareto tail, margins and equity
// ratios with realistic spreads, and an employee class that follows revenue.
import type { LatestFinancials } from '../core/company.js';
import { EMPLOYEES_CLASSES, type EmployeesClass, type LegalForm, type Trend } from '../core/values.js';
import type { Random } from './random.js';
import { trendOfGrowth } from '../core/trend.js';

export interface Figures {
  revenue: number;
  profit: number;
  equity_ratio: number;
  revenue_growth: number;
  trend: Trend;
  employees: number;
  employees_class: EmployeesClass;
  latest: LatestFinancials;
}

const CLASS_LOWER_BOUNDS = [0, 1, 5, 10, 20, 50, 100, 200, 500, 1000, 1500, 2000, 3000, 4000, 5000, 10000];

export function employeesClassFor(employees: number): EmployeesClass {
  let i = 0;
  while (i + 1 < CLASS_LOWER_BOUNDS.length && employees >= CLASS_LOWER_BOUNDS[i + 1]) i++;
  return EMPLOYEES_CLASSES[i];
}

export function drawRevenue(random: Random, form: LegalForm): number {
  const median = form === 'bostadsrättsförening' ? 2_500_000 : form === 'aktiebolag' ? 1_800_000 : 600_000;
  let revenue = random.logNormal(median, 1.6);
  // Pareto tail: a few companies are very large, as in reality.
  if (random.chance(0.004)) revenue *= 20 + 400 * (1 / Math.max(0.002, random.next()) ** 0.8) / 100;
  return Math.round(Math.min(revenue, 300_000_000_000) / 1000) * 1000;
}

export function drawFigures(random: Random, form: LegalForm, fiscalYear: number): Figures {
  const revenue = drawRevenue(random, form);
  const margin = Math.max(-1.5, Math.min(0.6, random.normal(0.05, 0.14)));
  const profit = Math.round((revenue * margin) / 1000) * 1000;
  const equity_ratio = round(Math.max(-0.8, Math.min(0.99, random.normal(0.38, 0.25))), 3);
  const revenue_growth = round(Math.max(-0.95, Math.min(5, random.normal(0.04, 0.22))), 3);
  const trend: Trend = trendOfGrowth(revenue_growth);
  const perEmployee = random.logNormal(1_300_000, 0.5);
  const employees = form === 'bostadsrättsförening' ? random.int(0, 1) : Math.max(0, Math.round(revenue / perEmployee - 0.5));
  const total_assets = Math.round((revenue * random.logNormal(0.8, 0.7)) / 1000) * 1000;
  return {
    revenue,
    profit,
    equity_ratio,
    revenue_growth,
    trend,
    employees,
    employees_class: employeesClassFor(employees),
    latest: {
      fiscal_year: fiscalYear,
      period_start: `${fiscalYear}-01-01`,
      period_end: `${fiscalYear}-12-31`,
      net_revenue: revenue,
      profit,
      equity_ratio,
      total_assets,
      employees,
      currency: 'SEK',
    },
  };
}

function round(x: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(x * f) / f;
}
