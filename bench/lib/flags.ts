// `--name value` flags of a benchmark over its defaults: a number where the default is one, else
// the string as given; an unknown flag is an error.

export function parseFlags<T extends Record<string, string | number>>(args: readonly string[], defaults: T, flags: Readonly<Record<string, keyof T>>): T {
  const out: Record<string, string | number> = { ...defaults };
  for (let i = 0; i < args.length; i++) {
    const key = flags[args[i]] as string | undefined;
    if (key === undefined) throw new Error(`unknown argument ${args[i]}`);
    const value = args[++i];
    out[key] = typeof defaults[key] === 'number' ? Number(value) : value;
  }
  return out as T;
}
