/**
 * `sandbox-exec` arguments for a sandboxed command: a Seatbelt profile in the spirit of Codex's
 * (closed by default, reads allowed everywhere, writes only under the writable roots and never in
 * their `.git`). Paths go in as `-D` parameters, so none needs quoting inside the profile.
 */
import type { SandboxLayout } from './layout.js';

const BASE_PROFILE = `(version 1)
(deny default)
; Children inherit the profile.
(allow process-exec)
(allow process-fork)
(allow signal (target same-sandbox))
(allow process-info* (target same-sandbox))
(allow user-preference-read)
(allow sysctl-read)
; os.cpus() and friends.
(allow mach-host*)
; getpwuid() and user lookups.
(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo"))
; Python's multiprocessing locks.
(allow ipc-posix-sem)
(allow pseudo-tty)
(allow file-read* file-write* file-ioctl (literal "/dev/ptmx"))
(allow file-read*)
(allow file-write-data (require-all (path "/dev/null") (vnode-type CHARACTER-DEVICE)))`;

// Sockets, plus the daemons DNS resolution and TLS verification go through.
const NETWORK_PROFILE = `(allow network-outbound)
(allow network-inbound)
(allow system-socket)
(allow mach-lookup
  (global-name "com.apple.mDNSResponder")
  (global-name "com.apple.networkd")
  (global-name "com.apple.SecurityServer")
  (global-name "com.apple.trustd.agent")
  (global-name "com.apple.ocspd"))`;

/** The profile and its `-D` parameters (`NAME=path`). */
export function seatbeltProfile(layout: SandboxLayout, networkAccess: boolean): { profile: string; params: string[] } {
  const params: string[] = [];
  const rules = layout.writableRoots.map(({ root, readOnly }, i) => {
    const name = `WRITABLE_ROOT_${i}`;
    params.push(`${name}=${root}`);
    const exclusions = readOnly.map((path, j) => {
      params.push(`${name}_RO_${j}=${path}`);
      return ` (require-not (subpath (param "${name}_RO_${j}")))`;
    });
    return `(require-all (subpath (param "${name}"))${exclusions.join('')})`;
  });
  const writes = rules.length > 0 ? [`(allow file-write*\n  ${rules.join('\n  ')})`] : [];
  const profile = [BASE_PROFILE, ...writes, ...(networkAccess ? [NETWORK_PROFILE] : [])].join('\n');
  return { profile, params };
}

export function seatbeltArgs(layout: SandboxLayout, networkAccess: boolean, command: string[]): string[] {
  const { profile, params } = seatbeltProfile(layout, networkAccess);
  return ['-p', profile, ...params.map((param) => `-D${param}`), '--', ...command];
}
