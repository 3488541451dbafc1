/**
 * Where the mobile capture app is downloaded (spec 000 §1). Waymark speaks the API of the
 * established server, so its mobile capture app (Mergin Maps) is the one that syncs with it;
 * the specification names no store addresses, so these are the stores' searches for it.
 */
export const MOBILE_APP_IOS_URL = 'https://apps.apple.com/search?term=mergin%20maps';
export const MOBILE_APP_ANDROID_URL = 'https://play.google.com/store/search?q=mergin%20maps&c=apps';
