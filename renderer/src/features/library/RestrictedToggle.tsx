import './library.css';

/** A padlock drawn inline (emoji fonts are missing on many Linux desktops), closed or open. */
function Padlock({ closed }: { closed: boolean }) {
  return (
    <svg className="padlock" viewBox="0 0 12 14" width="10" height="12" aria-hidden="true" focusable="false">
      <path d={closed ? 'M3 6V4a3 3 0 0 1 6 0v2' : 'M3 6V4a3 3 0 0 1 5.8-1'} fill="none" stroke="currentColor" strokeWidth="1.6" />
      <rect x="1" y="6" width="10" height="7.5" rx="1.5" fill="currentColor" />
    </svg>
  );
}

/**
 * A source's restricted flag (DESIGN.md §8) as a switch: padlock and word, never colour alone.
 * A restricted source's text is never sent to a model endpoint.
 */
export function RestrictedToggle({ fileName, restricted, onToggle }: { fileName: string; restricted: boolean; onToggle: () => void }) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={restricted}
      aria-label={`Restricted: ${fileName}`}
      className={`restricted-toggle ${restricted ? 'is-restricted' : ''}`}
      title={
        restricted
          ? 'Restricted: its text never leaves this machine (never sent to a model endpoint). Click to lift the restriction.'
          : 'Not restricted: passages may be sent to a configured model endpoint. Click to restrict it.'
      }
      onClick={onToggle}
    >
      <Padlock closed={restricted} /> {restricted ? 'Restricted' : 'Not restricted'}
    </button>
  );
}
