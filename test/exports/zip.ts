// Reads a ZIP with the system's unzip, so the archive is checked by a real reader.
import { execa } from 'execa';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export async function zipEntries(dir: string, bytes: Buffer): Promise<{ path: string; names: string[] }> {
  const path = join(dir, `check-${Date.now()}-${Math.random().toString(36).slice(2)}.zip`);
  writeFileSync(path, bytes);
  await execa('unzip', ['-tq', path]);
  const { stdout } = await execa('unzip', ['-Z1', path]);
  return { path, names: stdout.split('\n').filter(Boolean) };
}

export async function zipEntry(path: string, name: string): Promise<Buffer> {
  const { stdout } = await execa('unzip', ['-p', path, name], { encoding: 'buffer', stripFinalNewline: false });
  return Buffer.from(stdout);
}
