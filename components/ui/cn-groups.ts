/**
 * The console's Tailwind classes by tailwind-merge class group, for `cn` (components/ui/cn.ts): the
 * default configuration's groups, narrowed to the classes the source writes. Written by
 * components/ui/cn.test.ts (`npx vitest run components/ui/cn.test.ts -u`), which holds `cn` to
 * twMerge's answers for every pair of the source's classes. Do not edit by hand.
 */
export const cnConfig = {
  "cacheSize": 500,
  "theme": {},
  "classGroups": {
    "container": [
      "container"
    ],
    "display": [
      "block",
      "contents",
      "flex",
      "grid",
      "hidden",
      "inline",
      "inline-block",
      "inline-flex",
      "table"
    ],
    "sr": [
      "not-sr-only",
      "sr-only"
    ],
    "overflow": [
      "overflow-hidden"
    ],
    "overflow-x": [
      "overflow-x-auto"
    ],
    "overflow-y": [
      "overflow-y-auto"
    ],
    "position": [
      "absolute",
      "sticky"
    ],
    "inset": [
      "inset-0"
    ],
    "top": [
      "top-0",
      "top-3",
      "top-[12dvh]"
    ],
    "left": [
      "left-3"
    ],
    "z": [
      "z-30",
      "z-40",
      "z-50"
    ],
    "basis": [
      "basis-0",
      "basis-full"
    ],
    "flex-direction": [
      "flex-col"
    ],
    "flex-wrap": [
      "flex-wrap"
    ],
    "flex": [
      "flex-1"
    ],
    "shrink": [
      "shrink-0"
    ],
    "grid-cols": [
      "grid-cols-1",
      "grid-cols-2",
      "grid-cols-3",
      "grid-cols-5",
      "grid-cols-[9rem_minmax(0,1fr)]"
    ],
    "gap": [
      "gap-0",
      "gap-1",
      "gap-1.5",
      "gap-2",
      "gap-2.5",
      "gap-3",
      "gap-4",
      "gap-5",
      "gap-6",
      "gap-8"
    ],
    "gap-x": [
      "gap-x-1",
      "gap-x-2",
      "gap-x-3",
      "gap-x-4",
      "gap-x-6"
    ],
    "gap-y": [
      "gap-y-0.5",
      "gap-y-1",
      "gap-y-1.5",
      "gap-y-2",
      "gap-y-3"
    ],
    "justify-content": [
      "justify-between",
      "justify-center",
      "justify-end"
    ],
    "align-items": [
      "items-baseline",
      "items-center",
      "items-end",
      "items-start"
    ],
    "align-self": [
      "self-start"
    ],
    "p": [
      "p-0",
      "p-0.5",
      "p-1.5",
      "p-3",
      "p-4",
      "p-5"
    ],
    "px": [
      "px-1",
      "px-1.5",
      "px-2",
      "px-2.5",
      "px-3",
      "px-4",
      "px-5",
      "px-6"
    ],
    "py": [
      "py-0.5",
      "py-1",
      "py-1.5",
      "py-10",
      "py-2",
      "py-2.5",
      "py-3",
      "py-5",
      "py-6",
      "py-8"
    ],
    "pt": [
      "pt-0",
      "pt-1",
      "pt-2",
      "pt-5",
      "pt-6"
    ],
    "pl": [
      "pl-8"
    ],
    "mx": [
      "mx-3",
      "mx-auto"
    ],
    "my": [
      "my-1"
    ],
    "mt": [
      "mt-0.5",
      "mt-2"
    ],
    "mr": [
      "mr-3"
    ],
    "ml": [
      "ml-auto"
    ],
    "size": [
      "size-4",
      "size-6",
      "size-8"
    ],
    "w": [
      "w-full"
    ],
    "min-w": [
      "min-w-0",
      "min-w-[36rem]",
      "min-w-[56rem]"
    ],
    "max-w": [
      "max-w-48",
      "max-w-6xl",
      "max-w-72",
      "max-w-[50%]",
      "max-w-full",
      "max-w-md",
      "max-w-sm",
      "max-w-xl"
    ],
    "h": [
      "h-12",
      "h-3",
      "h-7",
      "h-8",
      "h-9",
      "h-full",
      "h-px"
    ],
    "min-h": [
      "min-h-14",
      "min-h-24",
      "min-h-5",
      "min-h-[50dvh]",
      "min-h-dvh"
    ],
    "max-h": [
      "max-h-[min(24rem,60dvh)]"
    ],
    "font-size": [
      "text-2xl",
      "text-[0.7rem]",
      "text-[13px]",
      "text-base",
      "text-sm",
      "text-xl",
      "text-xs"
    ],
    "font-weight": [
      "font-medium",
      "font-normal",
      "font-semibold"
    ],
    "font-family": [
      "font-medium\">",
      "font-medium\">Key,",
      "font-mono",
      "font-sans",
      "font-semibold\">"
    ],
    "fvn-spacing": [
      "tabular-nums"
    ],
    "tracking": [
      "tracking-tight",
      "tracking-wide"
    ],
    "leading": [
      "leading-5",
      "leading-none",
      "leading-tight"
    ],
    "text-alignment": [
      "text-center",
      "text-left"
    ],
    "text-color": [
      "text-2xl\"",
      "text-blue-100",
      "text-blue-200",
      "text-blue-900",
      "text-card-foreground",
      "text-destructive",
      "text-destructive-foreground",
      "text-foreground",
      "text-foreground\"",
      "text-foreground\">",
      "text-green-200",
      "text-green-900",
      "text-muted-foreground",
      "text-muted-foreground\"",
      "text-muted-foreground\">",
      "text-muted-foreground\">Checking",
      "text-muted-foreground\">Copy",
      "text-muted-foreground\">Loading",
      "text-muted-foreground\">No",
      "text-muted-foreground\">Or",
      "text-muted-foreground\">in",
      "text-primary-foreground",
      "text-red-100",
      "text-red-200",
      "text-red-900",
      "text-sm\"",
      "text-sm\">",
      "text-success",
      "text-warning-foreground",
      "text-white",
      "text-xs\">"
    ],
    "text-decoration": [
      "underline"
    ],
    "underline-offset": [
      "underline-offset-4"
    ],
    "text-transform": [
      "uppercase"
    ],
    "text-overflow": [
      "truncate"
    ],
    "vertical-align": [
      "align-top"
    ],
    "whitespace": [
      "whitespace-normal",
      "whitespace-nowrap",
      "whitespace-pre-wrap"
    ],
    "break": [
      "break-all",
      "break-words"
    ],
    "wrap": [
      "wrap-anywhere"
    ],
    "bg-color": [
      "bg-amber-500",
      "bg-background",
      "bg-black",
      "bg-blue-50",
      "bg-blue-700",
      "bg-blue-950",
      "bg-border",
      "bg-card",
      "bg-destructive",
      "bg-green-600",
      "bg-info",
      "bg-muted",
      "bg-muted\"",
      "bg-primary",
      "bg-red-50",
      "bg-red-600",
      "bg-red-700",
      "bg-red-950",
      "bg-success",
      "bg-transparent",
      "bg-warning",
      "bg-white",
      "bg-zinc-300",
      "bg-zinc-400"
    ],
    "rounded": [
      "rounded",
      "rounded-full",
      "rounded-lg",
      "rounded-md",
      "rounded-sm",
      "rounded-xl"
    ],
    "border-w": [
      "border",
      "border-0"
    ],
    "border-w-t": [
      "border-t"
    ],
    "border-w-b": [
      "border-b",
      "border-b-0"
    ],
    "divide-y": [
      "divide-y"
    ],
    "border-style": [
      "border-dashed"
    ],
    "border-color": [
      "border-blue-700",
      "border-border",
      "border-border\"",
      "border-border\">",
      "border-destructive",
      "border-info",
      "border-input",
      "border-red-700",
      "border-ring",
      "border-success",
      "border-warning"
    ],
    "divide-color": [
      "divide-border"
    ],
    "outline-style": [
      "outline-none"
    ],
    "outline-offset": [
      "outline-offset-2"
    ],
    "outline-w": [
      "outline",
      "outline-2"
    ],
    "outline-color": [
      "outline-ring",
      "outline-ring\""
    ],
    "shadow": [
      "shadow-xs"
    ],
    "ring-w": [
      "ring-2"
    ],
    "ring-w-inset": [
      "ring-inset"
    ],
    "ring-color": [
      "ring-destructive",
      "ring-ring",
      "ring-ring\""
    ],
    "ring-offset-w": [
      "ring-offset-2"
    ],
    "ring-offset-color": [
      "ring-offset-background",
      "ring-offset-background\""
    ],
    "opacity": [
      "opacity-50"
    ],
    "transition": [
      "transition-[width]",
      "transition-colors",
      "transition-transform"
    ],
    "rotate": [
      "rotate-180"
    ],
    "translate-y": [
      "translate-y-0"
    ],
    "accent": [
      "accent-primary"
    ],
    "cursor": [
      "cursor-not-allowed",
      "cursor-pointer"
    ],
    "pointer-events": [
      "pointer-events-none"
    ],
    "scroll-mt": [
      "scroll-mt-28",
      "scroll-mt-4"
    ],
    "fill": [
      "fill-muted-foreground",
      "fill-primary",
      "fill-primary-foreground"
    ]
  },
  "conflictingClassGroups": {
    "overflow": [
      "overflow-x",
      "overflow-y"
    ],
    "inset": [
      "top",
      "left"
    ],
    "flex": [
      "basis",
      "shrink"
    ],
    "gap": [
      "gap-x",
      "gap-y"
    ],
    "p": [
      "px",
      "py",
      "pt",
      "pl"
    ],
    "px": [
      "pl"
    ],
    "py": [
      "pt"
    ],
    "mx": [
      "mr",
      "ml"
    ],
    "my": [
      "mt"
    ],
    "size": [
      "w",
      "h"
    ],
    "font-size": [
      "leading"
    ],
    "border-w": [
      "border-w-t",
      "border-w-b"
    ]
  },
  "conflictingClassGroupModifiers": {
    "font-size": [
      "leading"
    ]
  },
  "postfixLookupClassGroups": [],
  "orderSensitiveModifiers": [
    "*",
    "**",
    "after",
    "backdrop",
    "before",
    "details-content",
    "file",
    "first-letter",
    "first-line",
    "marker",
    "placeholder",
    "selection"
  ]
} as const;
