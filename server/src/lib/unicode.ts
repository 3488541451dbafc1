/** Text that UTF-8 (and so the database) cannot hold. */

/** A UTF-16 surrogate without its pair (`"\ud800"` in JSON): no UTF-8 form exists. */
export const UNPAIRED_SURROGATE =
  /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
