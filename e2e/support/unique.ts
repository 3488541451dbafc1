// A name part that no other test of the run makes, whichever worker runs it: the time, the
// worker's process id and a counter. Tests name what they create with it, so tests running
// side by side on the one server never meet each other's projects, users or workspaces.
let counter = 0;

export function unique(): string {
  return `${Date.now().toString(36)}${process.pid.toString(36)}${(counter++).toString(36)}`;
}
