/** Small hooks for the screen: terminal size, the turn's elapsed seconds, a deadline re-render, a spinner. */
import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

export interface TerminalSize {
  columns: number;
  rows: number;
  /**
   * A resize came and has not settled: the terminal already has its new size (and has re-flowed what
   * it shows) while the screen is still laid out for the old one.
   */
  settling: boolean;
}

/** Resize events closer together than this (a window being dragged) make one redraw. */
export const RESIZE_SETTLE_MS = 30;

/**
 * The terminal's size, taken once a burst of resize events has settled: each new size lays the whole
 * transcript out again, which a drag would otherwise do dozens of times.
 */
export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  // Ink's stdout hides the real height from Ink (terminal/ink-stdout.ts); the screen needs it.
  const read = (): TerminalSize => ({
    columns: stdout.columns || 80,
    rows: (stdout as { screenRows?: number }).screenRows || stdout.rows || 24,
    settling: false,
  });
  const [size, setSize] = useState(read);
  useEffect(() => {
    let timer: NodeJS.Timeout | null = null;
    const onResize = (): void => {
      if (timer !== null) clearTimeout(timer);
      // Once per burst: the first event marks the screen as settling (one render), the rest only wait.
      else setSize((current) => (current.settling ? current : { ...current, settling: true }));
      timer = setTimeout(() => {
        timer = null;
        const next = read();
        setSize((current) => (current.columns === next.columns && current.rows === next.rows && !current.settling ? current : next));
      }, RESIZE_SETTLE_MS);
    };
    stdout.on('resize', onResize);
    return () => {
      if (timer !== null) clearTimeout(timer);
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}

/**
 * Whole seconds since `startedAt`, ticking once a second only while a turn runs: with no active turn
 * there is no timer at all, so an idle screen costs no CPU.
 */
export function useElapsedSeconds(startedAt: number | null, now: () => number): number {
  const [, tick] = useState(0);
  useEffect(() => {
    if (startedAt === null) return undefined;
    let timer: NodeJS.Timeout;
    const schedule = (): void => {
      // Wake just after the next whole second so the number changes on time.
      timer = setTimeout(
        () => {
          tick((n) => n + 1);
          schedule();
        },
        1000 - ((now() - startedAt) % 1000) + 5,
      );
    };
    schedule();
    return () => clearTimeout(timer);
  }, [startedAt]);
  return startedAt === null ? 0 : Math.max(0, Math.floor((now() - startedAt) / 1000));
}

/** True until `until` (ms on the injected clock); one timer re-renders when it passes. */
export function useUntil(until: number | null, now: () => number): boolean {
  const [, force] = useState(0);
  const active = until !== null && now() < until;
  useEffect(() => {
    if (until === null) return undefined;
    const remaining = until - now();
    if (remaining <= 0) return undefined;
    const timer = setTimeout(() => force((n) => n + 1), remaining + 5);
    return () => clearTimeout(timer);
  }, [until]);
  return active;
}

export const SPINNER_FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** The current spinner frame; animates (10 frames a second) only while `active`. */
export function useSpinnerFrame(active: boolean): string | null {
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => setFrame((n) => (n + 1) % SPINNER_FRAMES.length), 100);
    return () => clearInterval(timer);
  }, [active]);
  return active ? SPINNER_FRAMES[frame]! : null;
}
