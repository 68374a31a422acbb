/** Where a rollout is read from and how its file ends: shared by the reader and the writer. */

/** What a reader replays: a file, or the lines of an ephemeral thread. */
export type RolloutSource = { kind: 'file'; path: string } | { kind: 'memory'; lines: readonly string[] };

/** How the file ends: what a writer must do before appending to it. */
export interface RolloutTail {
  /** File size in bytes when it was read. */
  size: number;
  /** Bytes of a torn last line to cut off (0 when there is none). */
  tornBytes: number;
  /** The last line is whole but has no newline after it. */
  unterminated: boolean;
}
