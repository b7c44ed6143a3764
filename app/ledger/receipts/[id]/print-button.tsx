"use client";

// The receipt's Print button (the browser's own dialog; "Save as PDF" is one of its printers).
export function PrintButton() {
  return (
    <button type="button" className="btn small no-print" onClick={() => window.print()}>
      Print or save as PDF
    </button>
  );
}
