// The two shell functions that say where a file name goes, the same in bash and zsh: an option
// that takes a file or folder (`_bolag_takes_path "db import" --errors`), a command whose
// argument is one (`_bolag_arg_is_path "db import"`). The cases are the caller's, quoted for its shell.
export function pathFunctions(pathCase: string, argPaths: string): string {
  return `_bolag_takes_path() {
  case "$1|$2" in
${pathCase}
  esac
  return 1
}

_bolag_arg_is_path() {
  case "$1" in
${argPaths}
  esac
  return 1
}`;
}
