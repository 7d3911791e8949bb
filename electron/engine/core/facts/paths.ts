/**
 * Classifying paths: normalising against a working directory and home, and telling system,
 * sensitive, persistence and privilege places apart. Operates on single words the shell parser
 * has already isolated.
 */
import type { PathEffect } from '../../../../shared/types.js';

/** Joins and normalises a path against a working directory (no file system access). */
export function normalizePath(p: string, cwd: string, home: string): string {
  let path = p;
  if (path === '~' || path.startsWith('~/')) path = home + path.slice(1);
  if (!path.startsWith('/')) path = `${cwd.replace(/\/+$/, '')}/${path}`;
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return '/' + out.join('/');
}

const SYSTEM_ROOTS = ['/etc', '/bin', '/sbin', '/usr', '/lib', '/lib64', '/boot', '/dev', '/proc', '/sys', '/var', '/opt', '/root', '/srv', '/snap'];

/** `/`, a top-level system directory, or a direct child of one (e.g. /etc/ssh, /usr/bin, /var/lib). */
export function isSystemPath(p: string): boolean {
  if (p === '/' || p === '/*') return true;
  if (p.startsWith('/tmp') || p.startsWith('/var/tmp') || p.startsWith('/home/') || p.startsWith('/dev/null') || p.startsWith('/dev/shm')) return false;
  return SYSTEM_ROOTS.some((r) => p === r || p.startsWith(r + '/'));
}

/** A home directory itself (or everything in it), not something inside it. */
export function isHomeRoot(p: string, home: string): boolean {
  const trimmed = p.replace(/\/\*$/, '').replace(/\/+$/, '') || '/';
  return trimmed === home || trimmed === '/home' || /^\/home\/[^/]+$/.test(trimmed) || trimmed === '/root';
}

const SENSITIVE_NAMES = ['id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519', '.netrc', '.pgpass', '.npmrc', '.pypirc', '.git-credentials', 'credentials', '.env', 'secrets', 'secret', '.htpasswd', 'wallet.dat', 'keychain', '.bash_history', '.zsh_history', 'history', 'token', 'tokens', 'private.pem', 'private.key', 'server.key', 'kubeconfig', 'master.key'];
const SENSITIVE_DIRS = ['/.ssh', '/.aws', '/.gnupg', '/.kube', '/.docker', '/.config/gcloud', '/.azure', '/.mozilla', '/.config/google-chrome', '/.config/chromium', '/.password-store', '/.vault'];
const SENSITIVE_FILES = ['/etc/shadow', '/etc/gshadow', '/etc/sudoers', '/etc/master.passwd', '/etc/ssl/private', '/etc/passwd'];

/** Credentials, keys, secrets and password databases. */
export function isSensitivePath(p: string): boolean {
  if (SENSITIVE_FILES.some((f) => p === f || p.startsWith(f + '/') || p.startsWith(f + '.') || p.startsWith(f + '-'))) return true;
  if (SENSITIVE_DIRS.some((d) => p.includes(d + '/') || p.endsWith(d))) return true;
  const base = p.split('/').pop() ?? '';
  const lower = base.toLowerCase();
  if (SENSITIVE_NAMES.includes(lower)) return true;
  if (lower.startsWith('.env') || lower.endsWith('.pem') || lower.endsWith('.key') || lower.endsWith('.p12') || lower.endsWith('.pfx') || lower.endsWith('.kdbx')) return true;
  return /(^|[._-])(secret|secrets|credential|credentials|passwords?|apikey|api_key|token)s?([._-]|$)/.test(lower);
}

const PERSISTENCE = [
  '/etc/cron',
  '/var/spool/cron',
  '/etc/anacrontab',
  '/etc/systemd/',
  '/lib/systemd/system',
  '/usr/lib/systemd/system',
  '/etc/rc.local',
  '/etc/init.d/',
  '/etc/profile',
  '/etc/bash.bashrc',
  '/etc/bashrc',
  '/etc/zsh',
  '/etc/environment',
  '/etc/ld.so.preload',
  '/etc/xdg/autostart',
  '/etc/update-motd.d',
];
const HOME_PERSISTENCE = ['.bashrc', '.bash_profile', '.bash_login', '.profile', '.zshrc', '.zprofile', '.zlogin', '.config/autostart', '.config/systemd', '.ssh/authorized_keys', '.ssh/rc', '.xinitrc', '.xprofile', '.config/fish/config.fish'];

/** Places that make something run again later. */
export function persistencePlace(p: string): string | undefined {
  for (const pre of PERSISTENCE) if (p.startsWith(pre)) return pre.replace(/\/$/, '');
  for (const h of HOME_PERSISTENCE) if (p.endsWith('/' + h) || p.includes('/' + h + '/')) return '~/' + h;
  if (/\/\.git\/hooks\//.test(p)) return '.git/hooks';
  return undefined;
}

/** Files whose change alters who may do what. */
export function privilegePlace(p: string): string | undefined {
  for (const f of ['/etc/sudoers', '/etc/passwd', '/etc/shadow', '/etc/group', '/etc/gshadow', '/etc/pam.d', '/etc/security', '/etc/polkit-1']) {
    if (p === f || p.startsWith(f + '/') || p.startsWith(f + '.') || p.startsWith(f + '-')) return f;
  }
  return undefined;
}

const SCRATCH_PARTS = ['node_modules', '__pycache__', '.pytest_cache', '.mypy_cache', '.cache', 'dist', 'build', 'target', 'out', 'coverage', '.next', '.turbo', '.gradle', 'tmp', '.tox', '.venv', 'venv'];

/** Temporary files, caches and build output: deleting them loses nothing that cannot be rebuilt. */
export function isScratchPath(p: string): boolean {
  if (p.startsWith('/tmp/') || p.startsWith('/var/tmp/') || p.startsWith('/dev/shm/')) return true;
  const parts = p.split('/');
  return parts.length > 3 && parts.slice(3).some((seg) => SCRATCH_PARTS.includes(seg) || seg.endsWith('.pyc') || seg.endsWith('.o') || seg.endsWith('.log') || seg.endsWith('.tmp'));
}

/** Log and audit places. */
export function isLogPath(p: string): boolean {
  return p.startsWith('/var/log') || p.endsWith('_history') || p.endsWith('/.history') || p.startsWith('/var/audit') || p.includes('/wtmp') || p.includes('/btmp') || p.includes('/lastlog');
}

/** Block devices and raw memory. */
export function isDevicePath(p: string): boolean {
  return /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|md|dm-|mapper\/|loop|mem$|kmem$|port$)/.test(p);
}

/** Lower-cased words of a request, for matching the names an action touches. */
export function requestWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const raw of text.toLowerCase().split(/[\s,;:"'`()[\]{}<>]+/)) {
    const w = raw.replace(/[.!?]+$/, '');
    if (!w) continue;
    words.add(w);
    for (const part of w.split('/')) if (part) words.add(part);
  }
  return words;
}

/** Path-like words of a request ("/tmp/x", "~/a", "./b", "c.txt", ".env"), normalised. */
export function requestPathsOf(text: string, cwd: string, home: string): string[] {
  const out = new Set<string>();
  for (const raw of text.split(/[\s,;"'`()[\]{}<>]+/)) {
    const w = raw.replace(/[.!?:]+$/, '');
    if (!w || w.length > 4096) continue;
    const pathLike = w.startsWith('/') || w.startsWith('~') || w.startsWith('./') || w.startsWith('../') || (w.includes('/') && !w.includes('://')) || /^\.?[\w-]+\.[A-Za-z0-9]{1,8}$/.test(w) || /^\.[\w-]+$/.test(w);
    if (pathLike) out.add(normalizePath(w, cwd, home));
  }
  return [...out];
}

/**
 * Whether an effect on `path` is within what the request asked for: the path (or a parent of it)
 * is named in the request, or its last component is a word of the request.
 */
export function inRequestScope(path: string, requestPaths: string[], words: Set<string>): boolean {
  const clean = path.replace(/\/\*$/, '');
  for (const rp of requestPaths) {
    if (clean === rp || clean.startsWith(rp === '/' ? '/' : rp + '/')) return rp !== '/' || clean === '/';
  }
  const base = (clean.split('/').pop() ?? '').toLowerCase();
  if (!base) return false;
  if (words.has(base)) return true;
  const stem = base.replace(/^\./, '').replace(/\.[a-z0-9]+$/, '');
  return stem.length >= 3 && words.has(stem);
}

/** Builds a classified path effect. */
export function pathEffect(
  raw: string,
  by: string,
  ctx: { cwd: string; home: string; requestPaths: string[]; words: Set<string> },
  extra: { recursive?: boolean; mode?: string; dynamic?: boolean } = {},
): PathEffect {
  const path = normalizePath(raw, ctx.cwd, ctx.home);
  const e: PathEffect = {
    path,
    by,
    inScope: inRequestScope(path, ctx.requestPaths, ctx.words),
    system: isSystemPath(path),
    sensitive: isSensitivePath(path),
    homeRoot: isHomeRoot(path, ctx.home),
    scratch: isScratchPath(path),
    glob: /[*?[]/.test(raw),
    recursive: extra.recursive === true,
    dynamic: extra.dynamic === true,
  };
  if (extra.mode !== undefined) e.mode = extra.mode;
  return e;
}
