// Placeholder until its owner lands the command (replaced in this session).
export async function main(_argv: string[]): Promise<number> {
  process.stderr.write('tiller: this command is not built yet\n');
  return 1;
}
