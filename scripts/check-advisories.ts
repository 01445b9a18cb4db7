// Checks package-lock.json against security/advisories.json: every copy of a listed package,
// nested ones included, must sit outside every listed range. npm audit is not available here.
// `node scripts/check-advisories.ts [lock-file]` prints what it finds and exits 1 on any finding;
// test/integration/security/advisories.test.ts runs the same check in npm test.
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';

export interface Advisory {
  package: string;
  range: string;
  id: string;
  kind: 'advisory' | 'policy';
  summary: string;
  source: string;
}

/** One installed copy of a package, as the lock file records it. */
export interface LockedCopy {
  name: string;
  version: string;
  /** Where in the tree: the lock's key, e.g. node_modules/react-pdf/node_modules/pdfjs-dist. */
  location: string;
}

export interface Finding {
  copy: LockedCopy;
  /** The advisory it falls under, or null when its version is not one semver can place. */
  advisory: Advisory | null;
}

const root = path.resolve(import.meta.dirname, '..');
export const ADVISORIES_FILE = path.join(root, 'security', 'advisories.json');
export const LOCK_FILE = path.join(root, 'package-lock.json');

export function loadAdvisories(file = ADVISORIES_FILE): Advisory[] {
  const table = JSON.parse(fs.readFileSync(file, 'utf8')) as { advisories: Advisory[] };
  for (const a of table.advisories) {
    if (semver.validRange(a.range) === null) throw new Error(`${file}: ${a.package} ${a.id}: "${a.range}" is not a semver range.`);
  }
  return table.advisories;
}

type LockEntry = { version?: string; name?: string; link?: boolean; dependencies?: Record<string, LockEntry> };
interface Lock {
  packages?: Record<string, LockEntry>;
  dependencies?: Record<string, LockEntry>;
}

/**
 * Every installed copy in a lock: lockfile v2/v3 (`packages`, keyed by install path, nested copies
 * under …/node_modules/…) or v1 (`dependencies`, nested by tree). An aliased install
 * (`"x": "npm:y@1"`) is named by the package it really is.
 */
export function lockedCopies(lock: Lock): LockedCopy[] {
  const copies: LockedCopy[] = [];
  if (lock.packages) {
    for (const [location, entry] of Object.entries(lock.packages)) {
      const at = location.lastIndexOf('node_modules/');
      if (at < 0 || entry.link || entry.version === undefined) continue; // the root, workspaces, links
      copies.push({ name: entry.name ?? location.slice(at + 'node_modules/'.length), version: entry.version, location });
    }
    return copies;
  }
  const walk = (deps: Record<string, LockEntry> | undefined, prefix: string) => {
    for (const [name, entry] of Object.entries(deps ?? {})) {
      const location = `${prefix}node_modules/${name}`;
      if (entry.version !== undefined) {
        const alias = /^npm:(@?[^@]+)@(.+)$/.exec(entry.version);
        copies.push(alias ? { name: alias[1]!, version: alias[2]!, location } : { name, version: entry.version, location });
      }
      walk(entry.dependencies, `${location}/`);
    }
  };
  walk(lock.dependencies, '');
  return copies;
}

/** The copies of listed packages that sit in a listed range, or whose version cannot be checked. */
export function findVulnerable(lock: Lock, advisories: readonly Advisory[]): Finding[] {
  const watched = new Set(advisories.map((a) => a.package));
  const findings: Finding[] = [];
  for (const copy of lockedCopies(lock)) {
    if (!watched.has(copy.name)) continue;
    if (semver.valid(copy.version) === null) {
      findings.push({ copy, advisory: null }); // a git or file dependency: nothing proves it safe
      continue;
    }
    for (const advisory of advisories) {
      if (advisory.package === copy.name && semver.satisfies(copy.version, advisory.range, { includePrerelease: true })) {
        findings.push({ copy, advisory });
      }
    }
  }
  return findings;
}

export function describeFinding(finding: Finding): string {
  const { copy, advisory } = finding;
  if (!advisory) return `${copy.name}@${copy.version} at ${copy.location}: not a semver version, so it cannot be checked against the advisories.`;
  return `${copy.name}@${copy.version} at ${copy.location} is in ${advisory.range}: ${advisory.id} (${advisory.kind}). ${advisory.summary}`;
}

// Run directly: check the repo's lock (or the one named) and say what was found.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const lockFile = path.resolve(process.argv[2] ?? LOCK_FILE);
  const advisories = loadAdvisories();
  const findings = findVulnerable(JSON.parse(fs.readFileSync(lockFile, 'utf8')) as Lock, advisories);
  for (const f of findings) process.stdout.write(`${describeFinding(f)}\n`);
  const packages = [...new Set(advisories.map((a) => a.package))].join(', ');
  process.stdout.write(
    findings.length === 0
      ? `No copy of ${packages} in ${path.basename(lockFile)} sits in a listed range (${advisories.length} rows in security/advisories.json).\n`
      : `${findings.length} finding${findings.length === 1 ? '' : 's'}.\n`,
  );
  process.exit(findings.length === 0 ? 0 : 1);
}
