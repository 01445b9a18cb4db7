/** The one IPC channel every call travels on, and the one events come back on. */
export const IPC_INVOKE_CHANNEL = 'evidesk:invoke';
export const IPC_EVENT_CHANNEL = 'evidesk:event';
/** The custom scheme: app://renderer/… for the UI, app://source/<id> for a source's bytes. */
export const APP_SCHEME = 'app';
