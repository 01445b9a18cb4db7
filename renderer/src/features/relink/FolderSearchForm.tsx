import { useId, useState, type FormEvent, type RefObject } from 'react';

interface Props {
  label: string;
  busy: boolean;
  disabled: boolean;
  onSearch: (dir: string) => void;
  inputRef?: RefObject<HTMLInputElement | null>;
}

/** A typed folder path and Search: browser mode has no native folder dialog. */
export function FolderSearchForm({ label, busy, disabled, onSearch, inputRef }: Props) {
  const [dirText, setDirText] = useState('');
  const id = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const d = dirText.trim();
    if (d) onSearch(d);
  };
  return (
    <form className="relink-form" onSubmit={submit}>
      <label htmlFor={id}>{label}</label>
      <div className="row">
        <input id={id} ref={inputRef} value={dirText} onChange={(e) => setDirText(e.target.value)} spellCheck={false} autoComplete="off" placeholder="/home/me/Documents" />
        <button type="submit" disabled={disabled || dirText.trim() === ''}>
          {busy ? 'Searching…' : 'Search'}
        </button>
      </div>
    </form>
  );
}
