/**
 * Where background work a request starts (a version's changeset, map, whole copy, page
 * patch, webhooks) begins: once the request's answer is sent (lib/request-context.ts
 * `answered`), and then after the event loop's next turn for input and output. So the
 * request's own remaining statements (its answer, the push id's record) are not queued behind
 * that work's (PGlite runs one statement at a time), and the answer, and whatever input and
 * output is already waiting (other requests, a client in this process reading the answer),
 * go before the work's first statements and file reads. Outside a request: the next turn.
 */
import { requestContext } from './request-context';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function nextTurn(): Promise<void> {
  const answered = requestContext()?.answered;
  if (answered) {
    await answered;
    // setImmediate runs after this turn's input and output at the earliest: the second one
    // after the next turn's, which reads what the answer's sending made ready.
    await turn();
  }
  await turn();
}
