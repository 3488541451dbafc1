/**
 * Where the mobile capture app is downloaded (spec 000 §1). The specification names no
 * addresses; these store searches are placeholders until the app's listing addresses are known.
 */
export const MOBILE_APP_IOS_URL = 'https://apps.apple.com/search?term=waymark';
export const MOBILE_APP_ANDROID_URL = 'https://play.google.com/store/search?q=waymark&c=apps';
