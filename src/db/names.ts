/** The database's name, apart from ./db.ts so code that must not load Dexie can use it. */
export const DATABASE_NAME = 'waymark';
