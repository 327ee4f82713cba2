import { createServer } from 'node:net';
import { ConfigError, productionProblems, type Config } from '../config.js';

/**
 * What stops `npm start` before anything starts, every problem at once in one ConfigError
 * (exit code 2): production's refusals (productionProblems), and each port the process would
 * listen on that it cannot have, the server's (PORT on HOST) and, when it starts one, the
 * embedded DynamoDB Local's (DYNAMODB_LOCAL_PORT). Otherwise a taken port would be found only
 * once DynamoDB Local had started, seconds later, as a raw EADDRINUSE.
 *
 * A port is tried by listening on it and closing at once: another program may still take it
 * before the server does, which then fails as it always did.
 */
export async function checkBeforeStart(config: Config): Promise<void> {
  const problems = [...productionProblems(config), ...(await portProblems(config))];
  if (problems.length > 0) throw new ConfigError(problems);
}

/** Each port of `config` this process cannot listen on, with the variable to change. */
export async function portProblems(config: Config): Promise<string[]> {
  const local = config.embeddedDynamo;
  if (local && config.port === config.dynamodbLocalPort) {
    return [
      `PORT and DYNAMODB_LOCAL_PORT are both ${config.port}: the server and the embedded DynamoDB Local ` +
        'need a port each; set one of them to another port',
    ];
  }
  const problems: string[] = [];
  // PORT=0: the system chooses a free port when the server listens; nothing to try.
  if (config.port !== 0) {
    const problem = await listenProblem(config.host, config.port);
    if (problem) problems.push(portProblem('PORT', config, problem, 'another npm start, or another server'));
  }
  if (local) {
    const problem = await listenProblem(config.host, config.dynamodbLocalPort);
    if (problem) {
      problems.push(
        portProblem('DYNAMODB_LOCAL_PORT', config, problem, 'another npm start, or another DynamoDB Local') +
          (problem === 'EADDRINUSE'
            ? `; or, if it is a DynamoDB Local, use it: DYNAMODB_ENDPOINT=http://localhost:${config.dynamodbLocalPort}`
            : ''),
      );
    }
  }
  // A HOST that is no address of this machine is one problem, whichever port met it.
  return [...new Set(problems)];
}

/** The error code of a listen on host:port (EADDRINUSE, EACCES, EADDRNOTAVAIL, ...), or undefined once it listened. */
export function listenProblem(host: string, port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(undefined)));
  });
}

/** The line for a port that could not be had: the variable to set, and what holds it. */
function portProblem(name: 'PORT' | 'DYNAMODB_LOCAL_PORT', config: Config, code: string, holder: string): string {
  const port = name === 'PORT' ? config.port : config.dynamodbLocalPort;
  switch (code) {
    case 'EADDRINUSE':
      return (
        `${name}: port ${port} is already in use on ${config.host} (by ${holder}?); ` +
        `stop what holds it, or set ${name} to a free port`
      );
    case 'EACCES':
      return (
        `${name}: port ${port} needs privileges this process lacks (ports below 1024 do); ` +
        `set ${name} to a port from 1024 up`
      );
    case 'EADDRNOTAVAIL':
      return (
        `HOST: ${config.host} is no address of this machine, so nothing can listen on it; ` +
        'set HOST to one of its addresses, or 0.0.0.0 for all'
      );
    default:
      return `${name}: cannot listen on ${config.host}:${port} (${code}); set ${name} (or HOST) to another value`;
  }
}
