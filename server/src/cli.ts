/**
 * `npm run admin -- <command>`: operator commands (see admin/commands.ts for the list).
 * With a running server the command goes through its control socket (the embedded database
 * allows one process); otherwise this process opens the database itself.
 */
import {
  executeCommand,
  needsDatabase,
  parseCommand,
  usageFailure,
  UsageError,
  type Command,
  type CommandResult,
} from './admin/commands';
import { sendControlCommand } from './admin/control-socket';
import { bootstrap } from './bootstrap';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase, type Database } from './db/database';
import { migrate } from './db/migrate';

async function runDirect(command: Command, config: Config): Promise<CommandResult> {
  let database: Database | null = null;
  let notice = '';
  try {
    return await executeCommand(command, {
      config,
      async getDatabase() {
        if (!database) {
          database = await openDatabase(config);
          await migrate(database);
          const setup = await bootstrap(database, config);
          const admin = setup.createdAdmin;
          if (admin) {
            notice = admin.generatedPassword
              ? `Created the superuser ${admin.username} with the password ${admin.generatedPassword} (shown only once).\n`
              : `Created the superuser ${admin.username} with the password from ADMIN_PASSWORD.\n`;
          }
        }
        return database;
      },
    }).then((result) => ({ ...result, stdout: notice + result.stdout }));
  } finally {
    await (database as Database | null)?.close();
  }
}

async function main(argv: string[]): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const failure = usageFailure(error.message);
    process.stderr.write(failure.stderr);
    return failure.code;
  }

  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`Configuration error: ${error.message}\n`);
    return 1;
  }

  let result: CommandResult | null = null;
  if (needsDatabase(command)) result = await sendControlCommand(config.dataDir, argv);
  result ??= await runDirect(command, config);
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  return result.code;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`Error: ${(error as Error).message}\n`);
    process.exitCode = 1;
  },
);
