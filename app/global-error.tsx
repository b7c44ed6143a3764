"use client";

// Last resort when the root layout itself fails: it replaces the whole document, so it
// carries its own <html> and minimal styling.
export default function GlobalError({ reset }: { error: Error; reset: () => void }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", padding: "2rem", lineHeight: 1.5 }}>
        <main>
          <h1>Something went wrong</h1>
          <p>Milestone could not be shown. Try again in a moment.</p>
          <button type="button" onClick={reset}>
            Try again
          </button>
        </main>
      </body>
    </html>
  );
}
