import { useEffect, useState } from 'react';
import { client, ClientError } from '../../api/client.ts';

/**
 * The workspace setting that asks the model judge too (off by default), offered only where a model
 * endpoint is configured: the judge gives an opinion on each placed quote's support for its claim.
 */
export function JudgeSwitch() {
  const [model, setModel] = useState<string | null>(null);
  const [on, setOn] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void Promise.all([client.call('workspace.info', {}), client.call('workspace.settings', {})])
      .then(([info, settings]) => {
        if (!live) return;
        setModel(info.model ?? null);
        setOn(settings.modelJudge);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  if (!model) return null;
  const toggle = async (value: boolean) => {
    setError(null);
    try {
      setOn((await client.call('workspace.updateSettings', { modelJudge: value })).modelJudge);
    } catch (e) {
      setError(`The setting was not saved: ${e instanceof ClientError ? e.message : String(e)}`);
    }
  };
  return (
    <div className="judge-switch">
      <label title="The judge is asked only whether the evidence supports the claim; quote checks and numbers stay with the rules. Restricted sources are never sent.">
        <input type="checkbox" checked={on} onChange={(e) => void toggle(e.target.checked)} /> Ask the model judge ({model}) whether the evidence supports each claim
      </label>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
