/**
 * The seccomp filter bubblewrap installs (`--seccomp FD`) when a sandboxed command has no network:
 * `--unshare-net` leaves unix-domain sockets that live in the file system reachable (tmux, ssh-agent,
 * docker.sock, X11, the session bus), and connecting works on a read-only bind. As Codex's Linux
 * sandbox, the filter refuses with EPERM:
 * - `socket(AF_UNIX, …)`: no new unix socket, so nothing outside can be connected to;
 * - `socketpair(AF_UNIX, SOCK_DGRAM, …)`: a datagram pair can still `sendto` any socket path
 *   (stream pairs, which Node and shells use for pipes, stay allowed: they cannot be re-aimed);
 * - io_uring, whose operations (socket, connect) would pass by the filter.
 * A syscall of another ABI (i386 or x32 on x86-64) kills the process: the numbers above would not
 * hold for it. The program is classic BPF, little-endian, as `struct sock_filter[]`.
 */

/** `struct seccomp_data` offsets. */
const NR = 0;
const ARCH = 4;
const ARG0_LOW = 16;
const ARG1_LOW = 24;

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const AND_K = 0x54;
const RET_K = 0x06;

const RET_ALLOW = 0x7fff0000;
const RET_EPERM = 0x00050000 | 1;
const RET_KILL_PROCESS = 0x80000000;

const AF_UNIX = 1;
const SOCK_DGRAM = 2;
/** The socket type without SOCK_NONBLOCK / SOCK_CLOEXEC. */
const SOCK_TYPE_MASK = 0xf;
const X32_SYSCALL_BIT = 0x40000000;

interface Abi {
  audit: number;
  socket: number;
  socketpair: number;
  ioUring: number[];
  x32Bit: boolean;
}

const ABIS: Partial<Record<NodeJS.Architecture, Abi>> = {
  x64: { audit: 0xc000003e, socket: 41, socketpair: 53, ioUring: [425, 426, 427], x32Bit: true },
  arm64: { audit: 0xc00000b7, socket: 198, socketpair: 199, ioUring: [425, 426, 427], x32Bit: false },
};

interface Insn {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

const stmt = (code: number, k: number): Insn => ({ code, jt: 0, jf: 0, k });
const jump = (code: number, k: number, jt: number, jf: number): Insn => ({ code, jt, jf, k });

/** Whether this machine's architecture has a filter (else the sandbox cannot close unix sockets). */
export function seccompSupported(arch: NodeJS.Architecture = process.arch): boolean {
  return ABIS[arch] !== undefined;
}

/** The filter program for `arch`, as bwrap reads it from its `--seccomp` descriptor. */
export function unixSocketFilter(arch: NodeJS.Architecture = process.arch): Buffer {
  const abi = ABIS[arch];
  if (abi === undefined) throw new Error(`no seccomp filter for ${arch}`);
  // The tail the checks jump to (a jump's offset counts from the next instruction):
  //   0 socket:     ld arg0; 1: jeq AF_UNIX ? EPERM : ALLOW
  //   2 socketpair: ld arg0; 3: jeq AF_UNIX ? next : ALLOW; 4: ld arg1; 5: and type mask;
  //                 6: jeq SOCK_DGRAM ? EPERM : ALLOW
  //   7 EPERM, 8 ALLOW, 9 KILL
  const tail: Insn[] = [
    stmt(LD_W_ABS, ARG0_LOW),
    jump(JEQ_K, AF_UNIX, 5, 6),
    stmt(LD_W_ABS, ARG0_LOW),
    jump(JEQ_K, AF_UNIX, 0, 4),
    stmt(LD_W_ABS, ARG1_LOW),
    stmt(AND_K, SOCK_TYPE_MASK),
    jump(JEQ_K, SOCK_DGRAM, 0, 1),
    stmt(RET_K, RET_EPERM),
    stmt(RET_K, RET_ALLOW),
    stmt(RET_K, RET_KILL_PROCESS),
  ];
  const tailIndex = { socket: 0, socketpair: 2, eperm: 7, allow: 8, kill: 9 };
  const checks: Array<{ nr: number; to: keyof typeof tailIndex }> = [
    { nr: abi.socket, to: 'socket' },
    { nr: abi.socketpair, to: 'socketpair' },
    ...abi.ioUring.map((nr) => ({ nr, to: 'eperm' as const })),
  ];
  const head: Insn[] = [stmt(LD_W_ABS, ARCH)];
  // Instructions before the tail: the arch load and check, the nr load, the x32 check, one check
  // per syscall, and ALLOW for every other syscall.
  const headLength = 3 + (abi.x32Bit ? 1 : 0) + checks.length + 1;
  const toTail = (at: number, target: keyof typeof tailIndex): number => headLength - at - 1 + tailIndex[target];
  head.push(jump(JEQ_K, abi.audit, 0, toTail(1, 'kill')));
  head.push(stmt(LD_W_ABS, NR));
  if (abi.x32Bit) head.push(jump(JGE_K, X32_SYSCALL_BIT, toTail(head.length, 'kill'), 0));
  for (const check of checks) head.push(jump(JEQ_K, check.nr, toTail(head.length, check.to), 0));
  head.push(stmt(RET_K, RET_ALLOW));
  const program = [...head, ...tail];
  for (const [i, insn] of program.entries()) {
    if (insn.jt > 255 || insn.jf > 255 || i + 1 + Math.max(insn.jt, insn.jf) > program.length) {
      throw new Error('seccomp program: a jump leaves the program');
    }
  }
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach((insn, i) => {
    bytes.writeUInt16LE(insn.code, i * 8);
    bytes.writeUInt8(insn.jt, i * 8 + 2);
    bytes.writeUInt8(insn.jf, i * 8 + 3);
    bytes.writeUInt32LE(insn.k >>> 0, i * 8 + 4);
  });
  return bytes;
}
