/** A secret the api returns once (a signing secret, an API key): shown in a dialog that says so. */
import { type ReactNode, useEffect, useRef, useState } from "react";

interface Props {
  title: string;
  /** The secret; the dialog opens when it is set and `onClose` forgets it. */
  secret: string | null;
  onClose: () => void;
  children?: ReactNode;
}

export function SecretOnce({ title, secret, onClose, children }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (secret && !dialog.current?.open) dialog.current?.showModal();
    setCopied(false);
  }, [secret]);
  const copy = async () => {
    if (!secret) return;
    await navigator.clipboard.writeText(secret);
    setCopied(true);
  };
  const close = () => {
    dialog.current?.close();
    onClose();
  };
  return (
    <dialog ref={dialog} aria-label={title} className="secret-once" onCancel={onClose}>
      {secret && (
        <>
          <h2>{title}</h2>
          <p className="warn-text">
            <strong>Copy it now: you will not see this again.</strong> Only a hash is kept.
          </p>
          <div className="secret-row">
            <code data-testid="secret" aria-label="Secret">
              {secret}
            </code>
            <button type="button" onClick={() => void copy()}>
              {copied ? "Copied" : "Copy"}
            </button>
          </div>
          {children}
          <div className="actions">
            <button type="button" className="primary" onClick={close}>
              I have stored it
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
