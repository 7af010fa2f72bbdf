// The order wizard, loaded on demand so the home page stays small; each step loads with its own module
// (order-steps.ts).
import { Route, Routes } from 'react-router';
import { OrderLayout } from './order-layout.js';
import { GenderStepPage, PackageStepPage, RefinementStepPage, StyleStepPage, SummaryStepPage, UploadStepPage } from './order-steps.js';

export default function OrderRoutes() {
  return (
    <Routes>
      <Route element={<OrderLayout />}>
        <Route index element={<GenderStepPage />} />
        <Route path="gender" element={<GenderStepPage />} />
        <Route path="upload" element={<UploadStepPage />} />
        <Route path="style" element={<StyleStepPage />} />
        <Route path="package" element={<PackageStepPage />} />
        <Route path="refinement" element={<RefinementStepPage />} />
        <Route path="features" element={<SummaryStepPage />} />
        <Route path="summary" element={<SummaryStepPage />} />
      </Route>
    </Routes>
  );
}
