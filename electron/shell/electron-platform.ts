import { dialog, shell, type BrowserWindow } from 'electron';
import type { Platform } from '../services/platform.ts';

export function electronPlatform(window: () => BrowserWindow | null): Platform {
  return {
    mode: 'electron',
    chooseFiles: async ({ title, folders }) => {
      const win = window();
      const options = {
        title,
        properties: folders ? (['openDirectory', 'multiSelections'] as const) : (['openFile', 'multiSelections'] as const),
      };
      const result = win ? await dialog.showOpenDialog(win, { ...options, properties: [...options.properties] }) : await dialog.showOpenDialog({ ...options, properties: [...options.properties] });
      return result.canceled ? [] : result.filePaths;
    },
    chooseSavePath: async ({ title, defaultName }) => {
      const win = window();
      const result = win ? await dialog.showSaveDialog(win, { title, defaultPath: defaultName }) : await dialog.showSaveDialog({ title, defaultPath: defaultName });
      return result.canceled || !result.filePath ? null : result.filePath;
    },
    revealInFolder: async (filePath) => {
      shell.showItemInFolder(filePath);
    },
  };
}
