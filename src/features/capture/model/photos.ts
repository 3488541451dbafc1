/**
 * Photos of an ExternalResource field (issue 34): where a new photo is stored in the project
 * (the widget's folder, relative to the project, as the mobile app stores it) and under what
 * name: the moment it was taken, `yyyyMMdd_HHmmss`, with a short suffix so two photos of one
 * second never share a path.
 */

const pad = (value: number) => String(value).padStart(2, '0');

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/heif': 'heif',
  'image/gif': 'gif',
};

/** The file extension for a photo (its type's, else its name's, else jpg). */
export function photoExtension(type: string, name: string): string {
  const known = EXTENSIONS[type.toLowerCase()];
  if (known) return known;
  const fromName = /\.([a-z0-9]{1,5})$/i.exec(name)?.[1];
  return fromName ? fromName.toLowerCase() : 'jpg';
}

/** A folder from the widget: no leading or trailing slashes, no `.` or `..` parts. */
export function photoFolder(directory: string | undefined): string {
  return (directory ?? '')
    .replace(/\\/g, '/')
    .split('/')
    .filter((part) => part !== '' && part !== '.' && part !== '..')
    .join('/');
}

/** The project path of a new photo. */
export function photoPath(
  directory: string | undefined,
  taken: Date,
  file: { type: string; name: string },
  suffix: string,
): string {
  const stamp =
    `${taken.getFullYear()}${pad(taken.getMonth() + 1)}${pad(taken.getDate())}_` +
    `${pad(taken.getHours())}${pad(taken.getMinutes())}${pad(taken.getSeconds())}`;
  const name = `${stamp}_${suffix}.${photoExtension(file.type, file.name)}`;
  const folder = photoFolder(directory);
  return folder ? `${folder}/${name}` : name;
}

/** Whether a value names an image the form can show (by its extension). */
export const isImagePath = (value: string) => /\.(jpe?g|png|webp|gif|heic|heif|bmp)$/i.test(value);
