/**
 * Codex's model-family idea: which tools (and which form of each) a model is given depends on
 * what it was trained with. One table decides it; the registry asks it per request.
 */
export type ModelFamily = 'gpt-5' | 'other';

const FAMILIES: ReadonlyArray<{ pattern: RegExp; family: ModelFamily }> = [{ pattern: /^(gpt-5|codex-)/i, family: 'gpt-5' }];

export function modelFamily(model: string): ModelFamily {
  return FAMILIES.find((entry) => entry.pattern.test(model))?.family ?? 'other';
}
