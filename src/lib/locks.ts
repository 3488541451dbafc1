/** The part of the Web Locks API (`navigator.locks`) the web app uses: one tab at a time. */
export interface LocksLike {
  request<T>(
    name: string,
    options: { ifAvailable?: boolean },
    callback: (lock: unknown) => Promise<T> | T,
  ): Promise<T>;
}
