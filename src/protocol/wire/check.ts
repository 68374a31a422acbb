/** Compile-time agreement of a zod schema's output with the protocol type it stands for. */
import type { z } from 'zod';

/** True only when A and B are the same type (optional fields, nested shapes and all). */
export type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Fails to compile unless the schema's output is exactly `Api`. */
export function agrees<Api>() {
  return <S extends z.ZodType>(schema: S & (Same<z.output<S>, Api> extends true ? unknown : never)): S => schema;
}
