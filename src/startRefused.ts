/**
 * A start refused for a reason the person starting it can fix (an invalid variable, a port taken,
 * no Java, a table Canopy cannot use): its message is printed whole on stderr, with no stack, and
 * the process exits with code 2 (`npm start` and the `tree` commands alike).
 */
export class StartRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
