/** A button whose action runs only after the user confirms it in a dialog. */
import { useRef, useState } from "react";

interface Props {
  label: string;
  question: string;
  onConfirm: () => Promise<unknown> | void;
  danger?: boolean;
  disabled?: boolean;
}

export function ConfirmButton({ label, question, onConfirm, danger, disabled }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      dialog.current?.close();
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : String(cause));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" className={danger ? "danger" : undefined} disabled={disabled} onClick={() => dialog.current?.showModal()}>
        {label}
      </button>
      <dialog ref={dialog} aria-label={label}>
        <p>{question}</p>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <div className="actions">
          <button type="button" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="button" className={danger ? "danger" : "primary"} disabled={busy} onClick={() => void confirm()}>
            {label}
          </button>
        </div>
      </dialog>
    </>
  );
}
