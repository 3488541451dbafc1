/**
 * Storage use of a workspace in whole percent (spec 000 §4): 0 when disk_usage exceeds storage
 * (or there is no allowance), otherwise disk_usage / storage × 100 rounded down.
 */
export function storagePercentage(
  diskUsage: number | null | undefined,
  storage: number | null | undefined,
): number {
  const used = diskUsage ?? 0;
  const allowed = storage ?? 0;
  if (!(allowed > 0) || used > allowed || !(used >= 0)) return 0;
  return Math.floor((used / allowed) * 100);
}
