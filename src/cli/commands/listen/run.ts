// `bolag listen`: the receiver of src/webhooks/receiver/, printing, forwarding and --exec,
// processed one delivery after another so that output, forwards and commands keep the order
// in which deliveries arrived. With --register-url: the webhook is created at start and
// deleted at stop.
import type { ListenOptions } from './options.js';
import { CancelError, PipeClosedError, UsageError } from '../../errors/index.js';
import { OutputSink, terminalView } from '../../output/sink.js';
import { startWebhookReceiver, type ReceivedDelivery, type Rejection } from '../../../webhooks/receiver/receiver.js';
import { jsonlLine, prettyLine } from './print.js';
import { terminalText } from '../../output/terminal-text.js';

const REJECTED: Record<Rejection['reason'], string> = {
  malformed: 'malformed signature header',
  no_matching_signature: 'no matching signature',
  timestamp_out_of_tolerance: 'timestamp outside the tolerance',
  missing_signature: 'no Bolag-Signature header',
  too_large: 'body too large',
  method_not_allowed: 'not a POST',
};

async function runExec(command: string, d: ReceivedDelivery, stderr: NodeJS.WritableStream): Promise<string> {
  const { execa } = await import('execa');
  const r = await execa(command, {
    shell: true,
    input: d.raw,
    reject: false,
    timeout: 60_000,
    // This process's environment but for bolag's own secrets: the command needs neither.
    extendEnv: false,
    env: { ...withoutSecrets(process.env), BOLAG_EVENT_ID: d.eventId, BOLAG_EVENT_TYPE: d.eventType },
    stripFinalNewline: false,
  });
  // The command's own output goes to stderr: stdout is the event stream.
  if (r.stdout) stderr.write(String(r.stdout));
  if (r.stderr) stderr.write(String(r.stderr));
  if (r.timedOut) return 'exec: timed out';
  if (r.exitCode === undefined) return `exec: failed (${r.shortMessage ?? 'could not start'})`;
  return `exec: exit ${r.exitCode}`;
}

const SECRET_VARIABLES = new Set(['BOLAG_API_KEY', 'BOLAG_WEBHOOK_SECRET']);

function withoutSecrets(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !SECRET_VARIABLES.has(name)));
}

export async function listenRun(opts: ListenOptions): Promise<void> {
  const { factory } = opts;
  const { io } = factory;
  const sink = new OutputSink(io.stdout, terminalView(opts.format, io.stdoutIsTTY));
  const secrets = [...opts.secrets];
  const forwarder = opts.forwardTo ? new (await import('../../../webhooks/receiver/forward.js')).Forwarder(opts.forwardTo) : undefined;
  const pretty = opts.format === 'pretty';

  // One worker drains the queue; with neither forward nor exec, a burst becomes one write.
  const queue: ReceivedDelivery[] = [];
  let draining: Promise<void> | undefined;
  let failure: unknown;
  /** Forwards and runs --exec for one delivery; the line to print, and notes for stderr after it. */
  const handle = async (d: ReceivedDelivery): Promise<{ line: string; notes: string[] }> => {
    const extras: string[] = [];
    const notes: string[] = [];
    if (forwarder) {
      const f = await forwarder.forward(d);
      const result = f.status === null ? `failed (${f.error})` : `${f.status}${f.status >= 300 && f.status < 400 ? ' (redirect not followed)' : ''}`;
      extras.push(`→ ${result} (${f.durationMs} ms)`);
      notes.push(`forwarded ${d.eventId}: ${result} (${f.durationMs} ms)`);
    }
    if (opts.exec) {
      const e = await runExec(opts.exec, d, io.stderr);
      extras.push(e);
      notes.push(`${d.eventId}: ${e}`);
    }
    if (pretty) return { line: prettyLine(d, extras, io.color), notes: [] };
    return { line: jsonlLine(d), notes };
  };
  const drain = async () => {
    try {
      while (queue.length > 0) {
        if (!forwarder && !opts.exec) {
          const batch = queue.splice(0);
          await sink.write(batch.map((d) => (pretty ? prettyLine(d, [], io.color) : jsonlLine(d))).join(''));
        } else {
          const { line, notes } = await handle(queue.shift() as ReceivedDelivery);
          await sink.write(line);
          for (const n of notes) factory.notice(n);
        }
      }
    } catch (e) {
      failure ??= e;
      stop();
    } finally {
      draining = undefined;
    }
  };
  const enqueue = (d: ReceivedDelivery) => {
    queue.push(d);
    draining ??= drain();
  };

  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const onTerm = () => stop();
  factory.interrupt.addEventListener('abort', onTerm, { once: true });
  // The reader of stdout went away (`| head -1`): stop as at Ctrl-C, and end with exit 0.
  const onPipeGone = (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') return;
    failure ??= new PipeClosedError();
    stop();
  };
  io.stdout.on('error', onPipeGone);
  // `on`, not `once`: with a profile, a library under `conf` takes these signals with `once` and
  // raises them again, which found no listener of ours and killed the process (exit 143) before
  // the webhook was deleted. SIGHUP: the terminal closed.
  const TERM_SIGNALS = ['SIGTERM', 'SIGHUP'] as const;
  for (const signal of TERM_SIGNALS) process.on(signal, onTerm);
  const offTerm = () => {
    for (const signal of TERM_SIGNALS) process.off(signal, onTerm);
    io.stdout.off('error', onPipeGone);
  };

  const receiver = await startWebhookReceiver({
    port: opts.port,
    host: opts.host,
    secrets: () => secrets,
    toleranceSeconds: opts.toleranceSeconds,
    onDelivery: enqueue,
    onDuplicate: (d) => {
      if (pretty) factory.notice(`${d.eventId}: duplicate, skipped`);
    },
    onReject: (r) => factory.notice(`rejected ${r.eventId ?? 'a delivery'} on ${r.url}: ${REJECTED[r.reason]}`),
  }).catch((e: NodeJS.ErrnoException) => {
    offTerm();
    if (e.code === 'EADDRINUSE') throw new UsageError(`Port ${opts.port} is in use; choose another with --port (0 picks a free one).`, { flag: '--port' });
    throw e;
  });

  let registered: string | undefined;
  let client: Awaited<ReturnType<typeof factory.httpClient>> | undefined;
  const unregister = async () => {
    if (!registered || !client) return;
    const id = registered;
    registered = undefined;
    try {
      await client.delete(`/webhooks/${encodeURIComponent(id)}`, { retry: true });
      factory.notice(`Deleted webhook ${id}.`);
    } catch (e) {
      io.stderr.write(`${terminalText(`error: could not delete webhook ${id}: ${(e as Error).message} — delete it with: bolag webhooks delete ${id}`)}\n`);
    }
  };
  factory.defer(async () => {
    offTerm();
    await unregister();
    await receiver.close();
    await forwarder?.close();
  });

  if (opts.register) {
    client = await factory.httpClient();
    const res = await client.post<{ data: { id: string; secret: string } }>(
      '/webhooks',
      { url: opts.register.url, events: opts.register.events, filters: opts.register.filters },
      { signal: factory.interrupt },
    );
    registered = res.data.data.id;
    secrets.push(res.data.data.secret);
    factory.notice(`Registered webhook ${registered} for ${opts.register.url} (${opts.register.events.join(', ')}); it is deleted when this listener stops.`);
  }

  const what = [`${secrets.length} secret${secrets.length === 1 ? '' : 's'}`];
  if (opts.forwardTo) what.push(`forwarding to ${opts.forwardTo}`);
  if (opts.exec) what.push(`running: ${opts.exec}`);
  factory.notice(`Ready: listening on ${receiver.url} (${what.join(', ')}). Stop with Ctrl-C.`);

  await stopped;
  factory.interrupt.removeEventListener('abort', onTerm);
  // Stop taking deliveries (the service sends later ones again), finish what was taken (each
  // answered 200 already: never sent again), then remove the webhook; Ctrl-C waits for it.
  const finish = (async () => {
    await receiver.close();
    await draining;
    await unregister();
  })();
  factory.finishing(finish);
  await finish;
  offTerm();
  if (failure) throw failure;
  throw new CancelError('Stopped listening.');
}
