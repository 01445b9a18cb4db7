import type { Session } from 'electron';

/**
 * The app needs no browser permission: camera, microphone, notifications, geolocation, USB/HID/
 * serial devices and screen capture are all refused, asked or merely checked.
 */
export function denyAllPermissions(ses: Session): void {
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.setDevicePermissionHandler(() => false);
  ses.setDisplayMediaRequestHandler((_request, callback) => callback(null));
}
