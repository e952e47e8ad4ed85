// How `bolag listen` shows a delivery: one line of text on a terminal, the event itself as
// one JSON line otherwise.
import type { ReceivedDelivery } from '../../../webhooks/receiver/receiver.js';
import { terminalText } from '../../output/terminal-text.js';

/**
 * The event as a single JSON line: the bytes as received when they already are one; a body that
 * is not JSON (signed all the same) wrapped as `{id, type, raw}`, so that a pipe into jq holds.
 */
export function jsonlLine(d: ReceivedDelivery): string {
  const text = d.raw.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return `${JSON.stringify({ id: d.eventId, type: d.eventType, raw: text })}\n`;
  }
  return text.includes('\n') || text.includes('\r') ? `${JSON.stringify(parsed)}\n` : `${text}\n`;
}

function summary(d: ReceivedDelivery): string {
  let data: Record<string, unknown> = {};
  try {
    data = ((JSON.parse(d.raw.toString('utf8')) as { data?: Record<string, unknown> }).data ?? {}) as Record<string, unknown>;
  } catch {
    return '';
  }
  const parts: string[] = [];
  for (const key of ['org_nr', 'name', 'export_id', 'fiscal_year', 'row_count']) {
    if (data[key] !== undefined) parts.push(String(data[key]));
  }
  if (data.previous_status !== undefined) parts.push(`${String(data.previous_status)} → ${String(data.status)}`);
  if (Array.isArray(data.changed_fields)) parts.push(`changed: ${data.changed_fields.join(', ')}`);
  if (data.error && typeof data.error === 'object') parts.push(String((data.error as { message?: unknown }).message ?? ''));
  return parts.join('  ');
}

export function prettyLine(d: ReceivedDelivery, extras: string[], color: boolean): string {
  const time = d.receivedAt.toTimeString().slice(0, 8);
  // The sender's text (a signed body says only who sent it, not that it is harmless): shown, never
  // obeyed by the terminal.
  const eventType = terminalText(d.eventType || '?');
  const type = color ? `\u001b[1m${eventType}\u001b[22m` : eventType;
  const fields = [time, type, terminalText(d.eventId || '(no id)'), terminalText(summary(d)), ...extras.map((e) => terminalText(e))].filter((s) => s !== '');
  return `${fields.join('  ')}\n`;
}
