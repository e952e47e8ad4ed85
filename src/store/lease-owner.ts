// Whose leases a store's job queue takes: the incarnation (one run of a server process) that
// registered last on this store handle, or null before any did (CLI tools, tests). Written into
// `jobs.locked_by` with each claim; src/app/incarnation.ts reaps the leases of dead incarnations.
export class LeaseOwner {
  id: string | null = null;
}
