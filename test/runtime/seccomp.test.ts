import { describe, expect, it } from 'vitest';
import { seccompSupported, unixSocketFilter } from '../../src/runtime/sandbox/seccomp.js';

/** Runs a classic-BPF seccomp program on one syscall, as the kernel would. */
function run(program: Buffer, data: { arch: number; nr: number; args?: number[] }): number {
  const word = (offset: number): number => {
    if (offset === 0) return data.nr >>> 0;
    if (offset === 4) return data.arch >>> 0;
    const arg = (offset - 16) / 8;
    return (data.args?.[arg] ?? 0) >>> 0;
  };
  let acc = 0;
  for (let pc = 0; pc < program.length / 8; pc++) {
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    if (code === 0x20) acc = word(k);
    else if (code === 0x54) acc = (acc & k) >>> 0;
    else if (code === 0x15) pc += acc === k ? jt : jf;
    else if (code === 0x35) pc += acc >= k ? jt : jf;
    else if (code === 0x06) return k;
    else throw new Error(`unknown BPF code ${code}`);
  }
  throw new Error('fell off the end of the program');
}

const ALLOW = 0x7fff0000;
const EPERM = 0x00050001;
const KILL = 0x80000000;
const X64 = 0xc000003e;
const ARM64 = 0xc00000b7;

describe('the unix-socket seccomp filter', () => {
  it('x86-64: refuses AF_UNIX sockets, datagram pairs and io_uring; allows everything else', () => {
    const p = unixSocketFilter('x64');
    expect(run(p, { arch: X64, nr: 41, args: [1, 1] })).toBe(EPERM); // socket(AF_UNIX, SOCK_STREAM)
    expect(run(p, { arch: X64, nr: 41, args: [1, 0x80002] })).toBe(EPERM); // SOCK_DGRAM|SOCK_CLOEXEC
    expect(run(p, { arch: X64, nr: 41, args: [2, 1] })).toBe(ALLOW); // AF_INET: the net namespace has no route out
    expect(run(p, { arch: X64, nr: 53, args: [1, 0x80001] })).toBe(ALLOW); // stream pair (Node's stdio)
    expect(run(p, { arch: X64, nr: 53, args: [1, 0x80802] })).toBe(EPERM); // datagram pair can sendto any path
    expect(run(p, { arch: X64, nr: 53, args: [1, 5] })).toBe(ALLOW); // SOCK_SEQPACKET ignores addresses
    for (const nr of [425, 426, 427]) expect(run(p, { arch: X64, nr })).toBe(EPERM);
    for (const nr of [0, 1, 42, 59, 231]) expect(run(p, { arch: X64, nr, args: [1] })).toBe(ALLOW);
  });

  it('x86-64: another ABI (i386, x32) is killed, its numbers mean other calls', () => {
    const p = unixSocketFilter('x64');
    expect(run(p, { arch: 0x40000003, nr: 102 })).toBe(KILL);
    expect(run(p, { arch: X64, nr: 0x40000000 + 41, args: [1] })).toBe(KILL);
  });

  it('arm64 has its own numbers', () => {
    const p = unixSocketFilter('arm64');
    expect(run(p, { arch: ARM64, nr: 198, args: [1, 1] })).toBe(EPERM);
    expect(run(p, { arch: ARM64, nr: 41, args: [1, 1] })).toBe(ALLOW);
    expect(run(p, { arch: ARM64, nr: 199, args: [1, 2] })).toBe(EPERM);
    expect(run(p, { arch: X64, nr: 198 })).toBe(KILL);
  });

  it('other architectures have no filter, and say so', () => {
    expect(seccompSupported('ia32')).toBe(false);
    expect(() => unixSocketFilter('ia32')).toThrow('no seccomp filter for ia32');
  });
});
