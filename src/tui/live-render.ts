/**
 * Ink decides once, when its module is first evaluated, whether it runs in CI (the `CI` or
 * `CONTINUOUS_INTEGRATION` variables, via is-in-ci); in CI it draws only the final frame at exit. The
 * interactive UI always needs every frame, so its modules load with those variables hidden. They are
 * put back at once: shell commands the model runs still see the user's environment unchanged.
 */
const CI_VARIABLES = ['CI', 'CONTINUOUS_INTEGRATION'] as const;

export async function importWithLiveRendering<T>(load: () => Promise<T>): Promise<T> {
  const saved = CI_VARIABLES.map((name) => [name, process.env[name]] as const);
  for (const [name] of saved) delete process.env[name];
  try {
    return await load();
  } finally {
    for (const [name, value] of saved) if (value !== undefined) process.env[name] = value;
  }
}
