/**
 * The registry of wires (model/wire.ts): one line per wire. model/create.ts is the only module that
 * imports it, and a wire is reached only through it (.dependency-cruiser.cjs,
 * test/runtime/model/wire-registry.test.ts).
 */
import type { Wire } from '../wire.js';
import { anthropicWire } from './anthropic/wire.js';
import { chatWire } from './chat/wire.js';
import { offlineWire } from './offline/wire.js';
import { responsesWire } from './responses/wire.js';

export const WIRES = [responsesWire, chatWire, offlineWire, anthropicWire] as const satisfies readonly Wire[];

export type WireId = (typeof WIRES)[number]['id'];

export function wireById(id: WireId): Wire<WireId> {
  // Every id names a listed wire (WireId is made from the list).
  return WIRES.find((wire) => wire.id === id)!;
}
