/** The dashboard's full-storage warning shows above 90 percent (spec 000 §4 and §9). */
export const STORAGE_WARNING_THRESHOLD = 90;

export function shouldWarnAboutStorage(percentage: number): boolean {
  return percentage > STORAGE_WARNING_THRESHOLD;
}
