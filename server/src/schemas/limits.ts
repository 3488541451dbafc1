/**
 * Bounds on numbers clients send, so that every value a schema accepts is one the database
 * and the date arithmetic can hold (a larger one is a 400, never a 500).
 */
import { Type } from '@sinclair/typebox';

/** Largest row id (PostgreSQL `integer`/`serial`). */
export const MAX_ROW_ID = 2_147_483_647;

/** Largest `last_updated_in` of the project list, in days (100 years: every project). */
export const MAX_LAST_UPDATED_DAYS = 36_500;

/** A row id in a JSON body or query: 1 … MAX_ROW_ID. */
export const RowIdSchema = Type.Integer({ minimum: 1, maximum: MAX_ROW_ID });
