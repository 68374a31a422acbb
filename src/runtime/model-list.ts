/**
 * `model/list`: the provider's models from its `GET /models` (the offline model lists itself). When
 * the provider cannot list them (an error status, a 404, no answer, an empty list) the answer is
 * the config's `models`, else the configured model alone, with a `note` saying why.
 */
import { errorMessage } from '../error-message.js';
import {
  type Model,
  type ModelListParams,
  type ModelListResult,
  PROVIDER_DEFAULT_EFFORT,
  REASONING_EFFORT_DESCRIPTIONS,
  REASONING_EFFORTS,
} from '../protocol/api.js';
import { isOffline, type TillerConfig } from './config.js';
import type { ListedModel, ModelClient } from './model/types.js';

export const OFFLINE_MODEL_DESCRIPTION = "Tiller's embedded offline model: it describes what it received";

type ListConfig = Pick<TillerConfig, 'model' | 'models' | 'reasoningEffort' | 'apiKey' | 'baseUrl'>;

/** Why the provider's own list is not shown, and what is shown instead. */
export function fallbackNote(reason: string, config: Pick<TillerConfig, 'models'>): string {
  const shown = config.models.length > 0 ? 'the models listed in config.toml' : 'the configured model only';
  return `The provider did not list its models (${reason}); showing ${shown}.`;
}

export async function listModels(client: ModelClient, config: ListConfig, params: ModelListParams = {}): Promise<ModelListResult> {
  let listed: ListedModel[] | null = null;
  let note: string | null = null;
  if (client.listModels === undefined) note = fallbackNote('this client cannot list models', config);
  else {
    try {
      listed = await client.listModels();
      if (listed.length === 0) note = fallbackNote('its list is empty', config);
    } catch (error) {
      note = fallbackNote(errorMessage(error), config);
    }
  }
  const all = note === null && listed !== null ? [...listed].sort((a, b) => a.id.localeCompare(b.id)) : fallbackModels(config);
  const start = Math.max(0, Number.parseInt(params.cursor ?? '0', 10) || 0);
  const end = params.limit == null ? all.length : Math.min(all.length, start + params.limit);
  return {
    data: all.slice(start, end).map((m) => modelEntry(m, config)),
    nextCursor: end < all.length ? String(end) : null,
    note,
  };
}

function fallbackModels(config: Pick<TillerConfig, 'model' | 'models'>): ListedModel[] {
  const ids = config.models.length > 0 ? config.models : [config.model];
  return [...new Set(ids)].map((id) => ({ id, ownedBy: null }));
}

/** Listed models as model/list's entries, sorted by id. */
export function modelEntries(listed: readonly ListedModel[], config: ListConfig): Model[] {
  return [...listed].sort((a, b) => a.id.localeCompare(b.id)).map((m) => modelEntry(m, config));
}

function modelEntry(listed: ListedModel, config: ListConfig): Model {
  const description = isOffline(config) ? OFFLINE_MODEL_DESCRIPTION : listed.ownedBy !== null ? `owned by ${listed.ownedBy}` : '';
  return {
    id: listed.id,
    model: listed.id,
    displayName: listed.id,
    description,
    hidden: false,
    supportedReasoningEfforts: REASONING_EFFORTS.map((reasoningEffort) => ({
      reasoningEffort,
      description: REASONING_EFFORT_DESCRIPTIONS[reasoningEffort],
    })),
    defaultReasoningEffort: config.reasoningEffort ?? PROVIDER_DEFAULT_EFFORT,
    isDefault: listed.id === config.model,
  };
}
