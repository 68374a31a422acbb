/** Submission, turn and item ids: UUIDv7 strings (time-ordered, as Codex `Uuid::now_v7`). */
import { v7 } from 'uuid';

export function newId(): string {
  return v7();
}
