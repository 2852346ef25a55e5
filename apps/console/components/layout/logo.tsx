/** Basalt's mark: stacked hexagonal columns, as basalt cools. */
export function Logo({ className }: { className?: string }) {
  return (
    <span className={className} aria-hidden>
      <svg viewBox="0 0 24 24" className="size-6" fill="none">
        <path d="M4 8.5 8 6l4 2.5v7L8 18l-4-2.5z" fill="#14b38f" />
        <path d="M12 8.5 16 6l4 2.5v7L16 18l-4-2.5z" fill="#0e7c66" />
        <path d="M8 3 12 .9 16 3v3.5L12 8.5 8 6.5z" fill="#5fd4b6" opacity=".9" />
      </svg>
    </span>
  )
}
